/**
 * "Both sides confirm what they received": each party of a confirmed match may say they received the money due to
 * them ('I received'), once. When one party completes the match before the other said so, the other is asked, with
 * RECEIPT_WINDOW_HOURS to answer: yes ('I received'), no (a dispute, opened with the answer) or nothing (it lapses and
 * counts as yes). Each function checks its rule, changes the match and returns its events; callers hold the trade's
 * locks (trade.ts) and add the chat's system messages.
 */
import { RECEIPT_WINDOW_HOURS, type EventEnvelope } from '@puente/contracts';
import { conflict, makeEvent } from '@puente/platform';
import type { ExchangeMatch } from './exchange-match.ts';
import type { ExchangeRequest } from './exchange-request.ts';
import type { Dispute } from './disputes.ts';
import { matchParties } from './match-transitions.ts';
import { matchTerms } from './request-transitions.ts';

const HOUR_MS = 3_600_000;

/** The 409s of the receipt question, with their codes (the web app tells them apart). */
export const ReceiptRefusals = {
  answered: { code: 'receipt_answered', message: 'You have already answered whether you received the money' },
  windowPassed: {
    code: 'receipt_window_passed',
    message: `The ${RECEIPT_WINDOW_HOURS} hours to answer have passed: the money counts as received`,
  },
  notAsked: { code: 'receipt_not_asked', message: 'This match is completed: only the party asked whether they received their money can dispute it' },
} as const;

const refuse = (r: { code: string; message: string }) => conflict(r.message, r.code);

const receivedSide = (m: ExchangeMatch, userId: number) => (m.requesterId === userId ? 'requesterReceivedAt' : 'matcherReceivedAt');
const otherParty = (m: ExchangeMatch, userId: number) => (m.requesterId === userId ? m.matcherId : m.requesterId);

function receiptConfirmed(match: ExchangeMatch, request: ExchangeRequest, receivedById: number, automatic: boolean): EventEnvelope {
  return makeEvent('matchReceiptConfirmed', match.id, { ...matchParties(match), ...matchTerms(request), receivedById, automatic });
}

/** Whether `by`'s answer to the receipt question may still be given at `at`; throws the refusal. */
function assertQuestionOpen(match: ExchangeMatch, at: Date): void {
  if (match.receiptAnswer === 'lapsed') throw refuse(ReceiptRefusals.windowPassed);
  if (match.receiptAnswer) throw refuse(ReceiptRefusals.answered);
  if (match.receiptDueAt && at.getTime() >= match.receiptDueAt.getTime()) throw refuse(ReceiptRefusals.windowPassed);
}

/**
 * A party says they received the money due to them. On a confirmed match: once (again: no change, no event). On a
 * completed match: the asked party's yes while the question is open; anyone else changes nothing.
 */
export function confirmReceipt(match: ExchangeMatch, request: ExchangeRequest, by: number, at: Date): EventEnvelope[] {
  const side = receivedSide(match, by);
  if (match.status === 'confirmed') {
    if (match[side]) return [];
    match[side] = at;
    return [receiptConfirmed(match, request, by, false)];
  }
  if (match.status !== 'completed') throw conflict(`This match is ${match.status}: only a confirmed or completed match can be marked received`);
  if (match.receiptAskedId !== by) return [];
  assertQuestionOpen(match, at);
  match.receiptAnswer = 'yes';
  match.receiptAnsweredAt = at;
  match[side] = at;
  return [receiptConfirmed(match, request, by, false)];
}

/**
 * A party (`completedById`) just completed the match: the other is asked whether they received their money, unless
 * they already said so (then nobody is asked).
 */
export function askForReceipt(match: ExchangeMatch, request: ExchangeRequest, completedById: number, at: Date): EventEnvelope[] {
  if (match.status !== 'completed') throw conflict(`This match is ${match.status}: only a completed match asks for a receipt`);
  const askedId = otherParty(match, completedById);
  if (match[receivedSide(match, askedId)] || match.receiptAskedId) return [];
  const dueAt = new Date(at.getTime() + RECEIPT_WINDOW_HOURS * HOUR_MS);
  Object.assign(match, { receiptAskedId: askedId, receiptAskedAt: at, receiptDueAt: dueAt, receiptAnswer: null, receiptAnsweredAt: null });
  return [makeEvent('matchReceiptAsked', match.id, {
    ...matchParties(match), ...matchTerms(request), askedId, completedById, dueAt: dueAt.toISOString(),
  })];
}

/** Whether `by` may answer no to the receipt question of this completed match at `at`; throws the refusal. */
export function mayDenyReceipt(match: ExchangeMatch, by: number, at: Date): void {
  if (match.receiptAskedId !== by) {
    throw match.receiptAskedId ? refuse(ReceiptRefusals.notAsked) : conflict(`This match is ${match.status}: only a confirmed match can be disputed`);
  }
  assertQuestionOpen(match, at);
}

/**
 * The asked party's no: the dispute just stored (its id known) is opened with it, after completion. The match stays
 * completed and is frozen until an admin resolves it.
 */
export function denyReceipt(match: ExchangeMatch, dispute: Dispute, at: Date): EventEnvelope[] {
  mayDenyReceipt(match, dispute.openedById, at);
  match.receiptAnswer = 'no';
  match.receiptAnsweredAt = at;
  return [makeEvent('disputeOpened', match.id, {
    ...matchParties(match), disputeId: dispute.id, openedById: dispute.openedById, reason: dispute.reason, afterCompletion: true,
  })];
}

/** The window passed without an answer: it counts as yes, received at the window's end. None before then or once answered. */
export function lapseReceipt(match: ExchangeMatch, request: ExchangeRequest, at: Date): EventEnvelope[] {
  const { receiptAskedId: askedId, receiptDueAt: dueAt } = match;
  if (!askedId || !dueAt || match.receiptAnswer || at.getTime() < dueAt.getTime()) return [];
  match.receiptAnswer = 'lapsed';
  match.receiptAnsweredAt = dueAt;
  match[receivedSide(match, askedId)] = dueAt;
  return [receiptConfirmed(match, request, askedId, true)];
}
