/**
 * Exchange: exchange requests, matches, the exchange rate and transaction history. Owns schema `exchange`.
 * Skeleton: health, readiness, its schema with outbox and inbox; its routes and events arrive with its issue.
 */
import { fileURLToPath } from 'node:url';
import { defineService } from '@puente/platform';
import { consumers } from './events/consumers.ts';

export function exchangeService() {
  return defineService({
    name: 'exchange',
    entities: [],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    routes() {},
  });
}
