/**
 * Rating: ratings between the parties of a completed match. Owns schema `rating`.
 * Skeleton: health, readiness, its schema with outbox and inbox; its routes and events arrive with its issue.
 */
import { fileURLToPath } from 'node:url';
import { defineService } from '@puente/platform';
import { consumers } from './events/consumers.ts';

export function ratingService() {
  return defineService({
    name: 'rating',
    entities: [],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    routes() {},
  });
}
