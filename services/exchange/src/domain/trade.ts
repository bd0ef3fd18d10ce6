/**
 * The state changes of a trade as routes, jobs and consumers make them: under the trade's locks, each runs its
 * transition (match-transitions.ts, dispute-transitions.ts), makes what goes with it (the chat's system message, the
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
import { Dispute } from './disputes.ts';
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
 * in the chat): each party's count rises and their record takes the time it took from confirmation.
 */
export async function completeTrade(tx: EntityManager, match: ExchangeMatch, request: ExchangeRequest, by: number | null, at: Date): Promise<EventEnvelope[]> {
  const events = completeMatch(match, request, by, at);
  await recordCompletion(tx, match, at);
  return by === null ? events : [...events, ...await announceInChat(tx, match, 'completed', by, at)];
}

/** Each party's count of a completed match rises, and their record takes the time it took from confirmation. */
async function recordCompletion(tx: EntityManager, match: ExchangeMatch, at: Date): Promise<void> {
  await tx.flush();
  const { confirmedAt } = match;
  await addToTradeRecord(tx, [match.requesterId, match.matcherId], confirmedAt
    ? { transaction_count: 1, timed_completion_count: 1, completion_seconds_total: secondsBetween(confirmedAt, at) }
    : { transaction_count: 1 });
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

/** A party opens a dispute on a confirmed match (the caller checked they are one). */
export async function openDisputeOn(tx: EntityManager, match: ExchangeMatch, by: number, body: DisputeCreate, at: Date): Promise<Changed<Dispute>> {
  const { match: m } = await lockTrade(tx, match);
  mayOpenDispute(m, await tx.count(Dispute, { matchId: m.id }) > 0);
  const dispute = tx.create(Dispute, {
    matchId: m.id, requestId: m.requestId, requesterId: m.requesterId, matcherId: m.matcherId, openedById: by,
    reason: body.reason, statement: body.statement, status: 'open', openedAt: at,
    outcome: null, adminNote: null, resolvedById: null, resolvedAt: null, sanctionUserId: null, sanctionKind: null,
  });
  await tx.flush(); // the id goes into the event
  return changed(dispute, ...openDispute(m, dispute), ...await announceInChat(tx, m, 'disputed', by, at));
}

/**
 * An admin resolves an open dispute (dispute-transitions.ts): the match ends as decided, the sanction is recorded,
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
  const events = resolveDispute(dispute, trade.match, trade.request, adminId, body, at);
  if (body.outcome === 'completed') await recordCompletion(tx, trade.match, at);
  const { sanction } = body;
  if (sanction) {
    tx.create(TradingSanction, {
      userId: sanction.userId, kind: sanction.kind, disputeId: dispute.id, createdById: adminId, createdAt: at, liftedAt: null, liftedById: null,
    });
  }
  await tx.flush();
  return changed(dispute, ...events, ...await announceInChat(tx, trade.match, 'dispute_resolved', null, at));
}
