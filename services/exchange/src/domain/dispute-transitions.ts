/**
 * The state changes of a dispute, each checking its rule and returning the events it caused: a party opens one on a
 * confirmed match; an admin resolves it, ending the match as decided (match-transitions.ts). Callers hold the trade's
 * locks, add the chat messages and the sanction's row, and write the events with ServiceContext.change.
 */
import { DisputeRefusal, type DisputeResolve, type EventEnvelope } from '@puente/contracts';
import { conflict, fieldInvalid, makeEvent } from '@puente/platform';
import type { ExchangeMatch } from './exchange-match.ts';
import type { ExchangeRequest } from './exchange-request.ts';
import { DISPUTE_EXISTS, DISPUTE_RESOLVED, type Dispute } from './disputes.ts';
import { cancelMatch, completeMatch, matchParties } from './match-transitions.ts';

/** Whether a party may open a dispute on this match (`alreadyDisputed`: one exists for it); throws the refusal. */
export function mayOpenDispute(match: ExchangeMatch, alreadyDisputed: boolean): void {
  if (match.status !== 'confirmed') throw conflict(`This match is ${match.status}: only a confirmed match can be disputed`);
  // A confirmed match's dispute is still open (resolving one ends the match).
  if (alreadyDisputed) throw conflict(DISPUTE_EXISTS, DisputeRefusal.alreadyOpen);
}

/** A dispute just stored (its id known, status open) on a confirmed match: the match is frozen until it is resolved. */
export function openDispute(match: ExchangeMatch, dispute: Dispute): EventEnvelope[] {
  mayOpenDispute(match, false);
  return [makeEvent('disputeOpened', match.id, { ...matchParties(match), disputeId: dispute.id, openedById: dispute.openedById, reason: dispute.reason })];
}

/** A sanction is for one of the dispute's two parties; throws the field's refusal otherwise. */
export function checkSanction(dispute: Pick<Dispute, 'requesterId' | 'matcherId'>, sanction: DisputeResolve['sanction']): void {
  if (sanction && sanction.userId !== dispute.requesterId && sanction.userId !== dispute.matcherId) {
    throw fieldInvalid('sanction.userId', 'A sanction must be for one of the two parties');
  }
}

/**
 * An admin resolves an open dispute: the match ends as decided (its own event, as a party's completion or a
 * cancellation would publish), then the dispute is resolved and both parties told (disputeResolved). A dispute opened
 * after completion (the asked party's no, receipt-transitions.ts) leaves the match completed whatever the outcome: the
 * caller undoes the completion in the trade records when it is cancelled.
 */
export function resolveDispute(
  dispute: Dispute, match: ExchangeMatch, request: ExchangeRequest, adminId: number, body: DisputeResolve, at: Date,
): EventEnvelope[] {
  checkSanction(dispute, body.sanction);
  if (dispute.status !== 'open') throw conflict(DISPUTE_RESOLVED, DisputeRefusal.resolved);
  const ended = match.status === 'completed' ? []
    : body.outcome === 'completed' ? completeMatch(match, request, null, at)
    : cancelMatch(match, request, adminId, 'dispute-cancelled', at);
  const { sanction } = body;
  dispute.status = 'resolved';
  Object.assign(dispute, {
    outcome: body.outcome, adminNote: body.note, resolvedById: adminId, resolvedAt: at,
    sanctionUserId: sanction?.userId ?? null, sanctionKind: sanction?.kind ?? null,
  });
  return [...ended, makeEvent('disputeResolved', match.id, { ...matchParties(match), disputeId: dispute.id, outcome: body.outcome, sanction: sanction ?? null })];
}
