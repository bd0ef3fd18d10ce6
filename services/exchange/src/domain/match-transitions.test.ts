import { describe, expect, it } from 'vitest';
import type { ExchangeMatchStatus } from '@puente/contracts';
import {
  acceptRequest, cancelMatch, completeMatch, confirmMatch, expireMatch, markPaymentSent, mayAccept, remindCompletion, REQUEST_NOT_OPEN,
} from './match-transitions.ts';
import { aMatch, aRequest, LATER, MATCHER, REQUESTER, refusal, T0 } from './transitions.fixture.ts';

const STATUSES: ExchangeMatchStatus[] = ['pending', 'confirmed', 'completed', 'cancelled', 'expired'];
const PARTIES = { matchId: 20, requestId: 10, requesterId: REQUESTER, matcherId: MATCHER };
const TERMS = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '200.00', exchangeRate: '1275.0000' };

describe('match transitions', () => {
  it('accept: an open request of someone else is taken by the new match', () => {
    const request = aRequest();
    const events = acceptRequest(aMatch(), request);
    expect(request.status).toBe('matched');
    expect(events).toMatchObject([{ type: 'exchange.match.created', aggregateId: '20', payload: { ...PARTIES, ...TERMS } }]);
  });

  it('accept: refused for an unknown request (404), one\'s own (403) and one no longer open (409)', () => {
    expect(refusal(() => mayAccept(null, MATCHER))).toMatchObject({ status: 404 });
    expect(refusal(() => mayAccept(aRequest(), REQUESTER))).toEqual({ status: 403, code: 'forbidden', message: 'You cannot accept your own exchange request' });
    for (const status of ['matched', 'confirmed', 'completed', 'cancelled', 'expired'] as const) {
      const request = aRequest({ status });
      expect(refusal(() => acceptRequest(aMatch(), request))).toEqual({ status: 409, code: 'conflict', message: REQUEST_NOT_OPEN });
      expect(request.status).toBe(status);
    }
  });

  it('confirm: a pending match is confirmed, its request with it', () => {
    const match = aMatch();
    const request = aRequest({ status: 'matched' });
    const events = confirmMatch(match, request, LATER);
    expect(match).toMatchObject({ status: 'confirmed', confirmedAt: LATER });
    expect(request.status).toBe('confirmed');
    expect(events).toMatchObject([{ type: 'exchange.match.confirmed', payload: { ...PARTIES, ...TERMS } }]);
  });

  it.each(STATUSES.filter((s) => s !== 'pending'))('confirm: a %s match is refused', (status) => {
    const match = aMatch({ status });
    expect(refusal(() => confirmMatch(match, aRequest({ status: 'matched' }), LATER))).toEqual({
      status: 409, code: 'conflict', message: `This match is ${status}: only a pending match can be approved`,
    });
    expect(match.status).toBe(status);
  });

  it.each([['withdrawn', MATCHER], ['declined', REQUESTER]] as const)('cancel (%s): a pending match ends and its request reopens', (reason, by) => {
    const match = aMatch();
    const request = aRequest({ status: 'matched' });
    const events = cancelMatch(match, request, by, reason, LATER);
    expect(match).toMatchObject({ status: 'cancelled', endedAt: LATER, cancelledById: by });
    expect(request).toMatchObject({ status: 'open', openSince: LATER });
    expect(events).toMatchObject([{ type: 'exchange.match.cancelled', payload: { ...PARTIES, cancelledById: by, reason } }]);
  });

  it('cancel (request-cancelled): the pending match ends and its request is left to its own cancellation', () => {
    const match = aMatch();
    const request = aRequest({ status: 'matched' });
    cancelMatch(match, request, REQUESTER, 'request-cancelled', LATER);
    expect(match.status).toBe('cancelled');
    expect(request).toMatchObject({ status: 'matched', openSince: T0 });
  });

  it('cancel (dispute-cancelled): a confirmed match ends with its request', () => {
    const match = aMatch({ status: 'confirmed', confirmedAt: T0 });
    const request = aRequest({ status: 'confirmed' });
    const events = cancelMatch(match, request, 9, 'dispute-cancelled', LATER);
    expect(match).toMatchObject({ status: 'cancelled', cancelledById: 9 });
    expect(request.status).toBe('cancelled');
    expect(events[0]!.payload).toMatchObject({ reason: 'dispute-cancelled', cancelledById: 9 });
  });

  it.each(STATUSES.filter((s) => s !== 'pending'))('cancel by a party: a %s match is refused', (status) => {
    const match = aMatch({ status });
    expect(refusal(() => cancelMatch(match, aRequest({ status: 'matched' }), MATCHER, 'withdrawn', LATER))).toEqual({
      status: 409, code: 'conflict', message: `This match is ${status}: only a pending match can be called off`,
    });
    expect(match.status).toBe(status);
  });

  it('cancel by an admin: refused for a match not confirmed', () => {
    expect(refusal(() => cancelMatch(aMatch(), aRequest({ status: 'matched' }), 9, 'dispute-cancelled', LATER))).toMatchObject({ status: 409 });
  });

  it('complete: a confirmed match is completed by a party or (no completedById) by an admin', () => {
    const match = aMatch({ status: 'confirmed', confirmedAt: T0 });
    const request = aRequest({ status: 'confirmed' });
    const events = completeMatch(match, request, MATCHER, LATER);
    expect(match).toMatchObject({ status: 'completed', completedAt: LATER, completedById: MATCHER });
    expect(request.status).toBe('completed');
    expect(events).toMatchObject([{ type: 'exchange.match.completed', payload: { ...PARTIES, ...TERMS, completedById: MATCHER, confirmedAt: T0.toISOString() } }]);
    const byAdmin = completeMatch(aMatch({ status: 'confirmed', confirmedAt: T0 }), aRequest({ status: 'confirmed' }), null, LATER);
    expect(byAdmin[0]!.payload).not.toHaveProperty('completedById');
  });

  it.each(STATUSES.filter((s) => s !== 'confirmed'))('complete: a %s match is refused', (status) => {
    expect(refusal(() => completeMatch(aMatch({ status }), aRequest(), MATCHER, LATER))).toEqual({
      status: 409, code: 'conflict', message: `This match is ${status}: only a confirmed match can be marked completed`,
    });
  });

  it('expire: a pending match expires and its request reopens; any other is refused', () => {
    const match = aMatch();
    const request = aRequest({ status: 'matched' });
    expect(expireMatch(match, request, LATER)).toMatchObject([{ type: 'exchange.match.expired', payload: PARTIES }]);
    expect(match).toMatchObject({ status: 'expired', endedAt: LATER });
    expect(request).toMatchObject({ status: 'open', openSince: LATER });
    expect(refusal(() => expireMatch(aMatch({ status: 'confirmed' }), aRequest(), LATER))).toMatchObject({ status: 409 });
  });

  it('payment marked: each party once, a second mark changing and announcing nothing', () => {
    const match = aMatch({ status: 'confirmed', confirmedAt: T0 });
    expect(markPaymentSent(match, MATCHER, LATER)).toMatchObject([{ type: 'exchange.match.payment-marked', payload: { ...PARTIES, paidById: MATCHER } }]);
    expect(match.matcherPaidAt).toBe(LATER);
    expect(markPaymentSent(match, MATCHER, new Date(LATER.getTime() + 1000))).toEqual([]);
    expect(match.matcherPaidAt).toBe(LATER);
    expect(markPaymentSent(match, REQUESTER, LATER)).toHaveLength(1);
    expect(match.requesterPaidAt).toBe(LATER);
  });

  it.each(STATUSES.filter((s) => s !== 'confirmed'))('payment marked: a %s match is refused', (status) => {
    expect(refusal(() => markPaymentSent(aMatch({ status }), MATCHER, LATER))).toEqual({
      status: 409, code: 'conflict', message: `This match is ${status}: only a confirmed match can be marked paid`,
    });
  });

  it('completion reminded: once per reminder entry passed, never twice for one, never for a match not confirmed', () => {
    const match = aMatch({ status: 'confirmed', confirmedAt: T0 });
    expect(remindCompletion(match, 2, 48)).toMatchObject([{ type: 'exchange.match.completion-reminded', payload: { ...PARTIES, hoursSinceConfirmed: 48 } }]);
    expect(match.remindersSent).toBe(2);
    expect(remindCompletion(match, 2, 48)).toEqual([]);
    expect(remindCompletion(match, 1, 12)).toEqual([]);
    expect(remindCompletion(aMatch({ status: 'completed' }), 1, 12)).toEqual([]);
  });
});
