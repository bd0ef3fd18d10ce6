/**
 * Tables every service has in its own schema: the outbox (events written in the same transaction as the
 * change they announce), the inbox (ids of events a consumer has applied), and the relay lease (one relay
 * per service publishes at a time, so one aggregate's events leave in order).
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

export const platformEntities = [OutboxEventSchema, InboxEntrySchema, RelayLeaseSchema];

// The abstract bases services' entities extend, exported with the platform's entities (index.ts re-exports this file).
export { BaseEntitySchema, RecordEntitySchema } from './base-entity.ts';
