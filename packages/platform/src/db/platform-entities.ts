/**
 * Tables every service has in its own schema: the outbox (events written in the same transaction as the
 * change they announce), the inbox (ids of events a consumer has applied), the relay lease (one relay
 * per service publishes at a time, so one aggregate's events leave in order), and the idempotency keys of the
 * creates a client may repeat (http/idempotency.ts).
 */
import { defineEntity, p } from '@mikro-orm/postgresql';

export const OutboxEventSchema = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox_event',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    eventId: p.uuid().unique(),
    topic: p.string(),
    type: p.string(),
    aggregateId: p.string(),
    envelope: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    publishedAt: p.datetime().nullable().index(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
  },
});
export class OutboxEvent extends OutboxEventSchema.class {}
OutboxEventSchema.setClass(OutboxEvent);

export const InboxEntrySchema = defineEntity({
  name: 'InboxEntry',
  tableName: 'inbox_entry',
  properties: {
    consumer: p.string().primary(),
    eventId: p.uuid().primary(),
    type: p.string(),
    processedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class InboxEntry extends InboxEntrySchema.class {}
InboxEntrySchema.setClass(InboxEntry);

export const RelayLeaseSchema = defineEntity({
  name: 'RelayLease',
  tableName: 'relay_lease',
  properties: {
    name: p.string().primary(),
    owner: p.string(),
    expiresAt: p.datetime(),
  },
});
export class RelayLease extends RelayLeaseSchema.class {}
RelayLeaseSchema.setClass(RelayLease);

/**
 * A user's Idempotency-Key at an idempotent route: written in the transaction of the work it names (so a retry after
 * a crash finds it), then given the answer once sent. `request` is the hash of what was asked under the key.
 */
export const IdempotencyKeySchema = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_key',
  properties: {
    userId: p.integer().primary(),
    key: p.string().length(255).primary(),
    request: p.string(),
    status: p.integer().nullable(),
    body: p.text().nullable(),
    createdAt: p.datetime().index(),
  },
});
export class IdempotencyKey extends IdempotencyKeySchema.class {}
IdempotencyKeySchema.setClass(IdempotencyKey);

export const platformEntities = [OutboxEventSchema, InboxEntrySchema, RelayLeaseSchema, IdempotencyKeySchema];

// The abstract bases services' entities extend, exported with the platform's entities (index.ts re-exports this file).
export { BaseEntitySchema, RecordEntitySchema } from './base-entity.ts';
