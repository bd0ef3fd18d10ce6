/**
 * The state changes of a match (and of its request, which follows it), each checking its rule and returning the
 * events it caused. pending → confirmed (the requester approves) → completed (either party, or an admin resolving a
 * dispute); a pending match may be called off or expire, a disputed one cancelled by an admin. Callers hold the
 * trade's locks (trade.ts lockTrade), make what goes with a change (chat messages, trade records) and write the
 * events with ServiceContext.change.
 */
import type { EventEnvelope, EventPayload } from '@puente/contracts';
import { conflict, forbidden, makeEvent, notFound } from '@puente/platform';
import type { ExchangeMatch } from './exchange-match.ts';
import type { ExchangeRequest } from './exchange-request.ts';
import { REQUEST_NOT_FOUND } from './who-may-take.ts';
import { matchTerms, reopenRequest, requestCancelledWithMatch, requestCompletedByMatch, requestConfirmed, requestTaken } from './request-transitions.ts';

export const REQUEST_NOT_OPEN = 'This exchange request is no longer open';
export type CancelReason = EventPayload<'matchCancelled'>['reason'];

export function matchParties(m: ExchangeMatch) {
  return { matchId: m.id, requestId: m.requestId, requesterId: m.requesterId, matcherId: m.matcherId };
}

/** Whether the user may accept this request as it stands; throws the refusal. */
export function mayAccept(found: Pick<ExchangeRequest, 'userId' | 'status'> | null, userId: number): asserts found {
  if (!found) throw notFound(REQUEST_NOT_FOUND);
  if (found.userId === userId) throw forbidden('You cannot accept your own exchange request');
  if (found.status !== 'open') throw conflict(REQUEST_NOT_OPEN);
}

/** A pending match just stored (its id known) takes the request its matcher accepted. */
export function acceptRequest(match: ExchangeMatch, request: ExchangeRequest): EventEnvelope[] {
  mayAccept(request, match.matcherId);
  requestTaken(request);
  return [makeEvent('matchCreated', match.id, { ...matchParties(match), ...matchTerms(request) })];
}

/** The requester approves a pending match: both parties may now see each other's bank details. */
export function confirmMatch(match: ExchangeMatch, request: ExchangeRequest, at: Date): EventEnvelope[] {
  if (match.status !== 'pending') throw conflict(`This match is ${match.status}: only a pending match can be approved`);
  match.status = 'confirmed';
  match.confirmedAt = at;
  requestConfirmed(request);
  return [makeEvent('matchConfirmed', match.id, { ...matchParties(match), ...matchTerms(request) })];
}

/**
 * A pending match called off by `by` (the matcher withdraws, the requester declines, or cancels the request): it
 * ends, and the request is open again unless it was cancelled itself. A disputed (confirmed) match an admin cancels
 * ends too, with its request.
 */
export function cancelMatch(match: ExchangeMatch, request: ExchangeRequest, by: number, reason: CancelReason, at: Date): EventEnvelope[] {
  if (reason === 'dispute-cancelled') {
    if (match.status !== 'confirmed') throw conflict(`This match is ${match.status}: only a disputed confirmed match can be cancelled by an admin`);
  } else if (match.status !== 'pending') {
    throw conflict(`This match is ${match.status}: only a pending match can be called off`);
  }
  match.status = 'cancelled';
  match.endedAt = at;
  match.cancelledById = by;
  if (reason === 'dispute-cancelled') requestCancelledWithMatch(request);
  else if (reason !== 'request-cancelled') reopenRequest(request, at);
  return [makeEvent('matchCancelled', match.id, { ...matchParties(match), cancelledById: by, reason })];
}

/** A confirmed match completed by a party (`by`), or by an admin resolving its dispute (null); the request with it. */
export function completeMatch(match: ExchangeMatch, request: ExchangeRequest, by: number | null, at: Date): EventEnvelope[] {
  if (match.status !== 'confirmed') throw conflict(`This match is ${match.status}: only a confirmed match can be marked completed`);
  match.status = 'completed';
  match.completedAt = at;
  match.completedById = by;
  requestCompletedByMatch(request);
  return [makeEvent('matchCompleted', match.id, {
    ...matchParties(match), ...matchTerms(request), ...(by === null ? {} : { completedById: by }), confirmedAt: match.confirmedAt?.toISOString(),
  })];
}

/** A pending match the requester did not approve in time: it ends, its request reopens. */
export function expireMatch(match: ExchangeMatch, request: ExchangeRequest, at: Date): EventEnvelope[] {
  if (match.status !== 'pending') throw conflict(`This match is ${match.status}: only a pending match can expire`);
  match.status = 'expired';
  match.endedAt = at;
  reopenRequest(request, at);
  return [makeEvent('matchExpired', match.id, matchParties(match))];
}

/** A party of a confirmed match marks their own payment sent, once: a second mark changes nothing and announces nothing. */
export function markPaymentSent(match: ExchangeMatch, by: number, at: Date): EventEnvelope[] {
  if (match.status !== 'confirmed') throw conflict(`This match is ${match.status}: only a confirmed match can be marked paid`);
  const side = match.requesterId === by ? 'requesterPaidAt' : 'matcherPaidAt';
  if (match[side]) return [];
  match[side] = at;
  return [makeEvent('matchPaymentMarked', match.id, { ...matchParties(match), paidById: by })];
}

/**
 * Both parties of a confirmed match are reminded to complete it: `due` reminder entries have passed, the latest
 * `hoursSinceConfirmed` ago (several at once after a downtime: one reminder). None if that many were already sent.
 */
export function remindCompletion(match: ExchangeMatch, due: number, hoursSinceConfirmed: number): EventEnvelope[] {
  if (match.status !== 'confirmed' || due <= match.remindersSent) return [];
  match.remindersSent = due;
  return [makeEvent('matchCompletionReminded', match.id, { ...matchParties(match), hoursSinceConfirmed })];
}
