import { defineEntity, p } from '@mikro-orm/postgresql';
import { ExchangeMatchStatus, ReceiptAnswer } from '@puente/contracts';

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
    /** When each party said they received the money due to them ('I received'), once; a lapsed question sets its dueAt. */
    requesterReceivedAt: p.datetime().nullable(),
    matcherReceivedAt: p.datetime().nullable(),
    /** The party who marked it completed (null: an admin resolving its dispute, or completed before this was kept). */
    completedById: p.integer().nullable(),
    /**
     * The receipt question (domain/receipt-transitions.ts): put to the party who had not said they received when the
     * other completed; answered yes, no (a dispute) or lapsed at receiptDueAt. All null when nobody was asked.
     */
    receiptAskedId: p.integer().nullable(),
    receiptAskedAt: p.datetime().nullable(),
    receiptDueAt: p.datetime().nullable(),
    receiptAnswer: p.enum(ReceiptAnswer.options).nullable(),
    receiptAnsweredAt: p.datetime().nullable(),
  },
  uniques: [{
    name: 'exchange_match_live_request_unique', properties: ['requestId'],
    where: `status in (${LIVE_MATCH_STATUSES.map((s) => `'${s}'`).join(', ')})`,
  }],
  indexes: [
    { name: 'exchange_match_requester_id_index', properties: ['requesterId'] },
    { name: 'exchange_match_matcher_id_created_at_index', properties: ['matcherId', 'createdAt'] },
    { name: 'exchange_match_status_index', properties: ['status'] },
    // The trade timers' sweep for open receipt questions past their window.
    { name: 'exchange_match_receipt_due_at_index', properties: ['receiptDueAt'] },
  ],
});
export class ExchangeMatch extends ExchangeMatchSchema.class {}
ExchangeMatchSchema.setClass(ExchangeMatch);
