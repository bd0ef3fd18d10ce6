import { defineEntity, p } from '@mikro-orm/postgresql';
import { ExchangeMatchStatus } from '@puente/contracts';

/** Statuses of a match that holds its request: at most one such match per request, enforced by a unique index. */
export const LIVE_MATCH_STATUSES = ['pending', 'confirmed', 'completed'] as const;

/**
 * A match: `matcherId` accepted `requestId` of `requesterId`. pending → confirmed (the requester approves) →
 * completed (either party); a pending match may be cancelled (either party) or expire. The partial unique index
 * is what makes two accepts of one request yield one match, whatever the concurrency.
 */
export const ExchangeMatchSchema = defineEntity({
  name: 'ExchangeMatch',
  tableName: 'exchange_match',
  properties: {
    id: p.integer().primary().autoincrement(),
    requestId: p.integer(),
    requesterId: p.integer(),
    matcherId: p.integer(),
    status: p.enum(ExchangeMatchStatus.options),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    confirmedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    /** When it was cancelled or expired, and by whom when cancelled. */
    endedAt: p.datetime().nullable(),
    cancelledById: p.integer().nullable(),
    /** How many completion reminders were sent (one per COMPLETION_REMINDER_HOURS entry passed). */
    remindersSent: p.integer().default(0),
    /** When each party marked their payment sent ('I have paid'), once. */
    requesterPaidAt: p.datetime().nullable(),
    matcherPaidAt: p.datetime().nullable(),
  },
  uniques: [{
    name: 'exchange_match_live_request_unique', properties: ['requestId'],
    where: `status in (${LIVE_MATCH_STATUSES.map((s) => `'${s}'`).join(', ')})`,
  }],
  indexes: [
    { name: 'exchange_match_requester_id_index', properties: ['requesterId'] },
    { name: 'exchange_match_matcher_id_created_at_index', properties: ['matcherId', 'createdAt'] },
    { name: 'exchange_match_status_index', properties: ['status'] },
  ],
});
export class ExchangeMatch extends ExchangeMatchSchema.class {}
ExchangeMatchSchema.setClass(ExchangeMatch);
