/**
 * Audit: sign-up and login attempts for the admin monitoring view. Owns schema `audit`.
 * Skeleton: health, readiness, its schema with outbox and inbox; its routes and events arrive with its issue.
 */
import { fileURLToPath } from 'node:url';
import { defineService } from '@puente/platform';
import { consumers } from './events/consumers.ts';

export function auditService() {
  return defineService({
    name: 'audit',
    entities: [],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    routes() {},
  });
}
