/**
 * The state changes of a trade that more than one route (or the timers) make, each staging its event in the same
 * transaction. Locks are always taken request first, then match, so two paths never wait on each other in turn.
 */
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { moneyString, type EventPayload } from '@puente/contracts';
import { addToOutbox, makeEvent } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { announceInChat } from './chat.ts';
import { addToTradeRecord, secondsBetween } from './traders.ts';

export function matchParties(m: ExchangeMatch) {
  return { matchId: m.id, requestId: m.requestId, requesterId: m.requesterId, matcherId: m.matcherId };
}

/** A request's terms as events carry them. */
export function matchTerms(r: ExchangeRequest) {
  // The column keeps two decimals for both currencies; the bus carries each in its own unit ('255000', '12.50').
  return { fromCurrency: r.fromCurrency, toCurrency: r.toCurrency, amount: moneyString(r.fromCurrency, r.amount), exchangeRate: r.exchangeRate };
}

/** The request (locked), then the match (locked, re-read under the lock), for a change to a match. */
export async function lockTrade(tx: EntityManager, match: ExchangeMatch): Promise<{ request: ExchangeRequest; match: ExchangeMatch }> {
  const request = await tx.findOneOrFail(ExchangeRequest, { id: match.requestId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const locked = await tx.findOneOrFail(ExchangeMatch, { id: match.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  return { request, match: locked };
}

/**
 * A pending match called off by a party: it ends, and the request is open again unless it was cancelled itself. A
 * disputed match an admin cancels ends too, with its request (the dispute's resolution says so in the chat).
 */
export async function cancelMatch(
  tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, by: number,
  reason: EventPayload<'matchCancelled'>['reason'], now: Date,
): Promise<void> {
  match.status = 'cancelled';
  match.endedAt = now;
  match.cancelledById = by;
  if (reason === 'dispute-cancelled') request.status = 'cancelled';
  else if (reason !== 'request-cancelled') reopen(request, now);
  addToOutbox(tx, makeEvent('matchCancelled', match.id, { ...matchParties(match), cancelledById: by, reason }));
  if (reason !== 'dispute-cancelled') await announceInChat(tx, match, 'cancelled', by, now);
}

/**
 * A confirmed match completed by a party (`by`), or by an admin resolving its dispute (null: the resolution says so
 * in the chat): the request is completed, each party's count rises and their record takes the time it took from
 * confirmation.
 */
export async function completeMatch(tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, by: number | null, now: Date): Promise<void> {
  match.status = 'completed';
  match.completedAt = now;
  request.status = 'completed';
  await tx.flush();
  const { confirmedAt } = match;
  await addToTradeRecord(tx, [match.requesterId, match.matcherId], confirmedAt
    ? { transaction_count: 1, timed_completion_count: 1, completion_seconds_total: secondsBetween(confirmedAt, now) }
    : { transaction_count: 1 });
  addToOutbox(tx, makeEvent('matchCompleted', match.id, {
    ...matchParties(match), ...matchTerms(request), ...(by === null ? {} : { completedById: by }), confirmedAt: confirmedAt?.toISOString(),
  }));
  if (by !== null) await announceInChat(tx, match, 'completed', by, now);
}

/** A pending match the requester did not approve in time. */
export async function expireMatch(tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, now: Date): Promise<void> {
  match.status = 'expired';
  match.endedAt = now;
  reopen(request, now);
  addToOutbox(tx, makeEvent('matchExpired', match.id, matchParties(match)));
  await announceInChat(tx, match, 'expired', null, now);
}

function reopen(request: ExchangeRequest, now: Date): void {
  request.status = 'open';
  request.openSince = now;
}
