/**
 * The state changes of an exchange request, each checking its rule and returning the events it caused (none for the
 * moves a match makes its request follow: the match's own event announces them). Callers hold the request's lock
 * and write the events with ServiceContext.change.
 */
import { moneyString, type EventEnvelope } from '@puente/contracts';
import { conflict, makeEvent, tooManyRequests } from '@puente/platform';
import type { ExchangeRequest } from './exchange-request.ts';

/** How often an owner may send notifications about one request. */
export const NOTIFY_EVERY_MS = 60 * 60_000;

/** A request's terms as events carry them. */
export function matchTerms(r: ExchangeRequest) {
  // The column keeps two decimals for both currencies; the bus carries each in its own unit ('255000', '12.50').
  return { fromCurrency: r.fromCurrency, toCurrency: r.toCurrency, amount: moneyString(r.fromCurrency, r.amount), exchangeRate: r.exchangeRate };
}

/** A request just stored (its id known) enters the market. */
export function postRequest(request: ExchangeRequest): EventEnvelope[] {
  const { id, userId, fromCurrency, toCurrency, amount, exchangeRate } = request;
  return [makeEvent('requestCreated', id, { requestId: id, userId, fromCurrency, toCurrency, amount, exchangeRate })];
}

/** The owner (or their account's deletion) cancels an open or matched request; its pending match is the caller's to call off first. */
export function cancelRequest(request: ExchangeRequest): EventEnvelope[] {
  if (request.status !== 'open' && request.status !== 'matched') {
    throw conflict(`This exchange request is ${request.status}: only an open or matched request can be cancelled`);
  }
  request.status = 'cancelled';
  return [makeEvent('requestCancelled', request.id, { requestId: request.id, userId: request.userId })];
}

/** The owner marks an open request done at `at`: it leaves the market for their history; nobody traded with them here. */
export function completeRequestByOwner(request: ExchangeRequest, at: Date): EventEnvelope[] {
  if (request.status !== 'open') {
    throw conflict(`This exchange request is ${request.status}: only an open request can be marked done (a matched one completes through its match)`);
  }
  request.status = 'completed';
  request.markedDoneAt = at;
  return [makeEvent('requestCompleted', request.id, { requestId: request.id, userId: request.userId })];
}

/** Whether the owner may send notifications about the request now (open, none within the hour); throws the refusal. */
export function mayNotifyTakers(request: ExchangeRequest, at: Date): void {
  if (request.status !== 'open') throw conflict(`This exchange request is ${request.status}: only an open request can be announced`);
  const waitMs = request.notifiedAt ? request.notifiedAt.getTime() + NOTIFY_EVERY_MS - at.getTime() : 0;
  if (waitMs > 0) {
    const minutes = Math.ceil(waitMs / 60_000);
    throw tooManyRequests(`Notifications for this exchange request were sent less than an hour ago. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, waitMs / 1000);
  }
}

/** The owner tells the users who could take an open request, but those blocked either way (at most once an hour). */
export function notifyTakers(request: ExchangeRequest, at: Date, excludedUserIds: readonly number[]): EventEnvelope[] {
  mayNotifyTakers(request, at);
  request.notifiedAt = at;
  return [makeEvent('requestNotificationsSent', request.id, {
    requestId: request.id, userId: request.userId, ...matchTerms(request), ...(excludedUserIds.length > 0 ? { excludedUserIds: [...excludedUserIds] } : {}),
  })];
}

/** An open request nobody took in time; none (and no event) if it is no longer open. */
export function expireRequest(request: ExchangeRequest): EventEnvelope[] {
  if (request.status !== 'open') return [];
  request.status = 'expired';
  return [makeEvent('requestExpired', request.id, { requestId: request.id, userId: request.userId })];
}

/** Taken by a new match (match-transitions.ts acceptRequest checks it was open). */
export function requestTaken(request: ExchangeRequest): void {
  request.status = 'matched';
}

/** Its match was approved by the requester. */
export function requestConfirmed(request: ExchangeRequest): void {
  request.status = 'confirmed';
}

/** Its match was completed. */
export function requestCompletedByMatch(request: ExchangeRequest): void {
  request.status = 'completed';
}

/** Its match was cancelled by an admin resolving a dispute: the request ends with it. */
export function requestCancelledWithMatch(request: ExchangeRequest): void {
  request.status = 'cancelled';
}

/** Its match ended before it was approved: the request is open again, its expiry counted from now. */
export function reopenRequest(request: ExchangeRequest, now: Date): void {
  request.status = 'open';
  request.openSince = now;
}
