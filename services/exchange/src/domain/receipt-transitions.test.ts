import { describe, expect, it } from 'vitest';
import type { ExchangeMatchStatus } from '@puente/contracts';
import { askForReceipt, confirmReceipt, denyReceipt, lapseReceipt, mayDenyReceipt, ReceiptRefusals } from './receipt-transitions.ts';
import { aDispute, aMatch, aRequest, LATER, MATCHER, REQUESTER, refusal, T0 } from './transitions.fixture.ts';

const PARTIES = { matchId: 20, requestId: 10, requesterId: REQUESTER, matcherId: MATCHER };
const TERMS = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '200.00', exchangeRate: '1275.0000' };
const HOUR = 3_600_000;
const DUE = new Date(LATER.getTime() + 72 * HOUR);
const confirmed = () => aMatch({ status: 'confirmed', confirmedAt: T0 });
/** Completed by the matcher at LATER, the requester asked (due 72 hours later). */
const asked = () => aMatch({
  status: 'completed', confirmedAt: T0, completedAt: LATER, completedById: MATCHER,
  receiptAskedId: REQUESTER, receiptAskedAt: LATER, receiptDueAt: DUE,
});
const at = (hours: number) => new Date(LATER.getTime() + hours * HOUR);
const conflictOf = (r: { code: string; message: string }) => ({ status: 409, ...r });

describe('receipt transitions', () => {
  it('confirm: each party of a confirmed match once, a second time changing and announcing nothing', () => {
    const match = confirmed();
    const request = aRequest({ status: 'confirmed' });
    expect(confirmReceipt(match, request, MATCHER, LATER)).toMatchObject([{
      type: 'exchange.match.receipt-confirmed', aggregateId: '20', payload: { ...PARTIES, ...TERMS, receivedById: MATCHER, automatic: false },
    }]);
    expect(match.matcherReceivedAt).toBe(LATER);
    expect(confirmReceipt(match, request, MATCHER, at(1))).toEqual([]);
    expect(match.matcherReceivedAt).toBe(LATER);
    expect(confirmReceipt(match, request, REQUESTER, at(1))).toHaveLength(1);
    expect(match.requesterReceivedAt).toEqual(at(1));
  });

  it.each(['pending', 'cancelled', 'expired'] as ExchangeMatchStatus[])('confirm: a %s match is refused', (status) => {
    expect(refusal(() => confirmReceipt(aMatch({ status }), aRequest(), MATCHER, LATER))).toEqual({
      status: 409, code: 'conflict', message: `This match is ${status}: only a confirmed or completed match can be marked received`,
    });
  });

  it('confirm on a completed match: the asked party\'s yes within the window, once', () => {
    const match = asked();
    expect(confirmReceipt(match, aRequest(), REQUESTER, at(5))).toMatchObject([{ payload: { receivedById: REQUESTER, automatic: false } }]);
    expect(match).toMatchObject({ receiptAnswer: 'yes', receiptAnsweredAt: at(5), requesterReceivedAt: at(5) });
    expect(refusal(() => confirmReceipt(match, aRequest(), REQUESTER, at(6)))).toEqual(conflictOf(ReceiptRefusals.answered));
  });

  it('confirm on a completed match: anyone not asked changes nothing; the asked party is refused after dueAt', () => {
    const match = asked();
    expect(confirmReceipt(match, aRequest(), MATCHER, at(1))).toEqual([]);
    expect(match.matcherReceivedAt).toBeNull();
    expect(confirmReceipt(aMatch({ status: 'completed', completedAt: LATER }), aRequest(), REQUESTER, at(1))).toEqual([]);
    expect(refusal(() => confirmReceipt(match, aRequest(), REQUESTER, DUE))).toEqual(conflictOf(ReceiptRefusals.windowPassed));
    expect(match.receiptAnswer).toBeNull();
  });

  it('ask: the completer\'s partner, due 72 hours after the completion', () => {
    const match = aMatch({ status: 'completed', confirmedAt: T0, completedAt: LATER, completedById: MATCHER });
    expect(askForReceipt(match, aRequest(), MATCHER, LATER)).toMatchObject([{
      type: 'exchange.match.receipt-asked', payload: { ...PARTIES, ...TERMS, askedId: REQUESTER, completedById: MATCHER, dueAt: DUE.toISOString() },
    }]);
    expect(match).toMatchObject({ receiptAskedId: REQUESTER, receiptAskedAt: LATER, receiptDueAt: DUE, receiptAnswer: null, receiptAnsweredAt: null });
    expect(askForReceipt(match, aRequest(), MATCHER, at(1))).toEqual([]);
  });

  it('ask: nobody when the partner already said they received; refused on a match not completed', () => {
    const match = aMatch({ status: 'completed', completedAt: LATER, completedById: REQUESTER, matcherReceivedAt: T0 });
    expect(askForReceipt(match, aRequest(), REQUESTER, LATER)).toEqual([]);
    expect(match.receiptAskedId).toBeNull();
    expect(refusal(() => askForReceipt(confirmed(), aRequest(), REQUESTER, LATER))).toMatchObject({ status: 409 });
  });

  it('deny: the asked party\'s no opens the dispute after completion; the match stays completed', () => {
    const match = asked();
    const dispute = aDispute({ openedById: REQUESTER });
    expect(denyReceipt(match, dispute, at(10))).toMatchObject([{
      type: 'exchange.dispute.opened', payload: { ...PARTIES, disputeId: 30, openedById: REQUESTER, reason: 'no_payment', afterCompletion: true },
    }]);
    expect(match).toMatchObject({ status: 'completed', receiptAnswer: 'no', receiptAnsweredAt: at(10), requesterReceivedAt: null });
    expect(refusal(() => mayDenyReceipt(match, REQUESTER, at(11)))).toEqual(conflictOf(ReceiptRefusals.answered));
  });

  it('deny: refused for the completer, after dueAt, after a yes, and on a completed match nobody was asked about', () => {
    expect(refusal(() => mayDenyReceipt(asked(), MATCHER, at(1)))).toEqual(conflictOf(ReceiptRefusals.notAsked));
    expect(refusal(() => denyReceipt(asked(), aDispute({ openedById: REQUESTER }), at(72)))).toEqual(conflictOf(ReceiptRefusals.windowPassed));
    expect(refusal(() => mayDenyReceipt(asked(), REQUESTER, at(80)))).toEqual(conflictOf(ReceiptRefusals.windowPassed));
    const answered = asked();
    confirmReceipt(answered, aRequest(), REQUESTER, at(1));
    expect(refusal(() => mayDenyReceipt(answered, REQUESTER, at(2)))).toEqual(conflictOf(ReceiptRefusals.answered));
    expect(refusal(() => mayDenyReceipt(aMatch({ status: 'completed' }), REQUESTER, at(1)))).toEqual({
      status: 409, code: 'conflict', message: 'This match is completed: only a confirmed match can be disputed',
    });
  });

  it('lapse: at dueAt an open question counts as yes, received at dueAt, automatically; never before, never twice', () => {
    const match = asked();
    expect(lapseReceipt(match, aRequest(), at(71))).toEqual([]);
    expect(lapseReceipt(match, aRequest(), at(80))).toMatchObject([{
      type: 'exchange.match.receipt-confirmed', payload: { ...PARTIES, ...TERMS, receivedById: REQUESTER, automatic: true },
    }]);
    expect(match).toMatchObject({ receiptAnswer: 'lapsed', receiptAnsweredAt: DUE, requesterReceivedAt: DUE });
    expect(lapseReceipt(match, aRequest(), at(90))).toEqual([]);
    expect(refusal(() => confirmReceipt(match, aRequest(), REQUESTER, at(90)))).toEqual(conflictOf(ReceiptRefusals.windowPassed));
  });

  it('lapse: nothing for a question answered no (its dispute decides) or a match nobody was asked about', () => {
    const denied = asked();
    denyReceipt(denied, aDispute({ openedById: REQUESTER }), at(1));
    expect(lapseReceipt(denied, aRequest(), at(100))).toEqual([]);
    expect(denied.receiptAnswer).toBe('no');
    expect(lapseReceipt(aMatch({ status: 'completed' }), aRequest(), at(100))).toEqual([]);
  });
});
