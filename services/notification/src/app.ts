/**
 * Notification: in-app notifications and the live match announcements. Owns schema `notification`.
 * Skeleton: health, readiness, its schema with outbox and inbox; its routes and events arrive with its issue.
 */
import { fileURLToPath } from 'node:url';
import { defineService } from '@puente/platform';
import { consumers } from './events/consumers.ts';

export function notificationService() {
  return defineService({
    name: 'notification',
    entities: [],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    routes() {},
  });
}
