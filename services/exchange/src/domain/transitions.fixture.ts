/** In-memory requests, matches and disputes for the transitions' unit tests (no database). */
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { Dispute } from './disputes.ts';

export const T0 = new Date('2026-11-01T10:00:00Z');
export const LATER = new Date('2026-11-01T12:00:00Z');
export const REQUESTER = 1;
export const MATCHER = 2;
export const ADMIN = 9;

export function aRequest(fields: Partial<ExchangeRequest> = {}): ExchangeRequest {
  return Object.assign(new ExchangeRequest(), {
    id: 10, userId: REQUESTER, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '200.00', exchangeRate: '1275.0000',
    status: 'open', createdAt: T0, updatedAt: T0, openSince: T0, notifiedAt: null, minTrustLevel: null, verifiedOnly: false,
    markedDoneAt: null,
  } satisfies Partial<ExchangeRequest>, fields);
}

export function aMatch(fields: Partial<ExchangeMatch> = {}): ExchangeMatch {
  return Object.assign(new ExchangeMatch(), {
    id: 20, requestId: 10, requesterId: REQUESTER, matcherId: MATCHER, status: 'pending', createdAt: T0, updatedAt: T0,
    confirmedAt: null, completedAt: null, endedAt: null, cancelledById: null, remindersSent: 0, requesterPaidAt: null, matcherPaidAt: null,
    requesterReceivedAt: null, matcherReceivedAt: null, completedById: null, receiptAskedId: null, receiptAskedAt: null, receiptDueAt: null,
    receiptAnswer: null, receiptAnsweredAt: null,
  } satisfies Partial<ExchangeMatch>, fields);
}

export function aDispute(fields: Partial<Dispute> = {}): Dispute {
  return Object.assign(new Dispute(), {
    id: 30, matchId: 20, requestId: 10, requesterId: REQUESTER, matcherId: MATCHER, openedById: MATCHER, reason: 'no_payment',
    statement: 'No money arrived', status: 'open', openedAt: T0, outcome: null, adminNote: null, resolvedById: null, resolvedAt: null,
    sanctionUserId: null, sanctionKind: null,
  } satisfies Partial<Dispute>, fields);
}

export { refusal } from '@puente/platform/testing';
