/**
 * Accounts: each user's GBP and CLP bank accounts, encrypted at rest. Owns schema `accounts`.
 * Skeleton: health, readiness, its schema with outbox and inbox; its routes and events arrive with its issue.
 */
import { fileURLToPath } from 'node:url';
import { defineService } from '@puente/platform';
import { consumers } from './events/consumers.ts';

export function accountsService() {
  return defineService({
    name: 'accounts',
    entities: [],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    routes() {},
  });
}
