/**
 * The state changes of a trade as routes, jobs and consumers make them: under the trade's locks, each runs its
 * transition (match-, dispute- and receipt-transitions.ts), makes what goes with it (the chat's system message, the
 * parties' trade records, a sanction's row) and returns every event caused, in order, for ServiceContext.change to
 * write. Locks are always taken request first, then match, so two paths never wait on each other in turn.
 */
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { DisputeCreate, DisputeResolve, EventEnvelope } from '@puente/contracts';
import { changed, type Changed } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { announceInChat } from './chat.ts';
import { addToTradeRecord, secondsBetween } from './traders.ts';
import { acceptRequest, cancelMatch, completeMatch, confirmMatch, expireMatch, markPaymentSent, type CancelReason } from './match-transitions.ts';
import { checkSanction, mayOpenDispute, openDispute, resolveDispute } from './dispute-transitions.ts';
import { askForReceipt, confirmReceipt, denyReceipt, lapseReceipt, mayDenyReceipt } from './receipt-transitions.ts';
import { assertNotDisputed, Dispute } from './disputes.ts';
import { TradingSanction } from './sanctions.ts';

/** The request (locked), then the match (locked, re-read under the lock), for a change to a match. */
export async function lockTrade(tx: EntityManager, match: ExchangeMatch): Promise<{ request: ExchangeRequest; match: ExchangeMatch }> {
  const request = await tx.findOneOrFail(ExchangeRequest, { id: match.requestId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const locked = await tx.findOneOrFail(ExchangeMatch, { id: match.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  return { request, match: locked };
}

/** `matcherId` accepts the request (locked, checked open by the caller): a pending match, announced in its chat. */
export async function takeRequest(tx: EntityManager, request: ExchangeRequest, matcherId: number, at: Date): Promise<Changed<ExchangeMatch>> {
  const match = tx.create(ExchangeMatch, {
    requestId: request.id, requesterId: request.userId, matcherId, status: 'pending', createdAt: at, updatedAt: at,
  });
  await tx.flush(); // the id goes into the events
  const events = acceptRequest(match, request);
  return changed(match, ...events, ...await announceInChat(tx, match, 'accepted', matcherId, at));
}

/** The requester approves: each party's confirmed count rises. */
export async function confirmTrade(tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, by: number, at: Date): Promise<EventEnvelope[]> {
  const events = confirmMatch(match, request, at);
  await addToTradeRecord(tx, [match.requesterId, match.matcherId], { confirmed_count: 1 });
  return [...events, ...await announceInChat(tx, match, 'confirmed', by, at)];
}

/** A match called off (match-transitions.ts cancelMatch); a party's call is announced in the chat, an admin's by the resolution. */
export async function cancelTrade(
  tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, by: number, reason: CancelReason, at: Date,
): Promise<EventEnvelope[]> {
  const events = cancelMatch(match, request, by, reason, at);
  return reason === 'dispute-cancelled' ? events : [...events, ...await announceInChat(tx, match, 'cancelled', by, at)];
}

/**
 * A confirmed match completed by a party (`by`), or by an admin resolving its dispute (null: the resolution says so
 * in the chat): each party's count rises and their record takes the time it took from confirmation. A party's
 * completion asks the other whether they received their money, unless they already said so.
 */
export async function completeTrade(tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, by: number | null, at: Date): Promise<EventEnvelope[]> {
  const events = completeMatch(match, request, by, at);
  await recordCompletion(tx, match, at);
  if (by === null) return events;
  const asked = askForReceipt(match, request, by, at);
  return [
    ...events, ...await announceInChat(tx, match, 'completed', by, at),
    ...asked, ...(asked.length ? await announceInChat(tx, match, 'receipt_asked', match.receiptAskedId ?? null, at) : []),
  ];
}

/**
 * A party's 'I received' (receipt-transitions.ts confirmReceipt), under the trade's locks: on a confirmed match, or
 * the asked party's yes on a completed one. Refused while a dispute of the match is open (it is frozen).
 */
export async function confirmReceiptOf(tx: EntityManager, match: ExchangeMatch, by: number, at: Date): Promise<Changed<ExchangeMatch>> {
  const { match: m, request } = await lockTrade(tx, match);
  await assertNotDisputed(tx, m);
  const events = confirmReceipt(m, request, by, at);
  return changed(m, ...events, ...(events.length ? await announceInChat(tx, m, 'received', by, at) : []));
}

/** The receipt window passed without an answer (the trade timers; the caller holds the locks): it counts as yes. */
export async function lapseReceiptOf(tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, at: Date): Promise<EventEnvelope[]> {
  const events = lapseReceipt(match, request, at);
  return events.length ? [...events, ...await announceInChat(tx, match, 'received', match.receiptAskedId ?? null, at)] : [];
}

/**
 * Each party's count of a completed match rises (or, `sign` -1, falls again: an admin cancelled it after completion),
 * and their record takes (or gives back) the time it took from confirmation.
 */
async function recordCompletion(tx: EntityManager, match: ExchangeMatch, at: Date, sign: 1 | -1 = 1): Promise<void> {
  await tx.flush();
  const { confirmedAt } = match;
  await addToTradeRecord(tx, [match.requesterId, match.matcherId], confirmedAt
    ? { transaction_count: sign, timed_completion_count: sign, completion_seconds_total: sign * secondsBetween(confirmedAt, at) }
    : { transaction_count: sign });
}

/** A pending match the requester did not approve in time. */
export async function expireTrade(tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, at: Date): Promise<EventEnvelope[]> {
  const events = expireMatch(match, request, at);
  return [...events, ...await announceInChat(tx, match, 'expired', null, at)];
}

/** A party marks their payment sent: the chat says so, and the other party is also told outside it (a notification). */
export async function markPaid(tx: EntityManager, match: ExchangeMatch, by: number, at: Date): Promise<EventEnvelope[]> {
  const events = markPaymentSent(match, by, at);
  if (events.length === 0) return [];
  return [...await announceInChat(tx, match, 'paid', by, at), ...events];
}

/**
 * A party opens a dispute on a confirmed match (the caller checked they are one), or the party asked whether they
 * received their money answers no on the completed match, within the window.
 */
export async function openDisputeOn(tx: EntityManager, match: ExchangeMatch, by: number, body: DisputeCreate, at: Date): Promise<Changed<Dispute>> {
  const { match: m } = await lockTrade(tx, match);
  const afterCompletion = m.status === 'completed';
  if (afterCompletion) mayDenyReceipt(m, by, at);
  else mayOpenDispute(m, await tx.count(Dispute, { matchId: m.id }) > 0);
  const dispute = tx.create(Dispute, {
    matchId: m.id, requestId: m.requestId, requesterId: m.requesterId, matcherId: m.matcherId, openedById: by,
    reason: body.reason, statement: body.statement, status: 'open', openedAt: at,
    outcome: null, adminNote: null, resolvedById: null, resolvedAt: null, sanctionUserId: null, sanctionKind: null,
  });
  await tx.flush(); // the id goes into the event
  const opened = afterCompletion ? denyReceipt(m, dispute, at) : openDispute(m, dispute);
  return changed(dispute, ...opened, ...await announceInChat(tx, m, 'disputed', by, at));
}

/**
 * An admin resolves an open dispute (dispute-transitions.ts): the match ends as decided (one disputed after
 * completion stays completed, its completion undone in the trade records when cancelled), the sanction is recorded,
 * and both parties are told (disputeResolved, the chat). Null for an unknown dispute.
 */
export async function resolveDisputeById(
  tx: EntityManager, disputeId: number, adminId: number, body: DisputeResolve, at: Date,
): Promise<Changed<Dispute | null>> {
  const seen = await tx.findOne(Dispute, { id: disputeId });
  if (!seen) return changed(null);
  checkSanction(seen, body.sanction);
  const trade = await lockTrade(tx, await tx.findOneOrFail(ExchangeMatch, { id: seen.matchId }));
  const dispute = await tx.findOneOrFail(Dispute, { id: disputeId }, { refresh: true });
  const afterCompletion = trade.match.status === 'completed';
  const events = resolveDispute(dispute, trade.match, trade.request, adminId, body, at);
  if (!afterCompletion && body.outcome === 'completed') await recordCompletion(tx, trade.match, at);
  // Cancelled after completion: the match stays completed, but counts in neither party's record.
  if (afterCompletion && body.outcome === 'cancelled') await recordCompletion(tx, trade.match, trade.match.completedAt ?? at, -1);
  const { sanction } = body;
  if (sanction) {
    tx.create(TradingSanction, {
      userId: sanction.userId, kind: sanction.kind, disputeId: dispute.id, createdById: adminId, createdAt: at, liftedAt: null, liftedById: null,
    });
  }
  await tx.flush();
  return changed(dispute, ...events, ...await announceInChat(tx, trade.match, 'dispute_resolved', null, at));
}
