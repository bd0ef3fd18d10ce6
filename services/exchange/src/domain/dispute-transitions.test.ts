import { describe, expect, it } from 'vitest';
import { checkSanction, mayOpenDispute, openDispute, resolveDispute } from './dispute-transitions.ts';
import { DISPUTE_EXISTS, DISPUTE_RESOLVED } from './disputes.ts';
import { aDispute, aMatch, aRequest, ADMIN, LATER, MATCHER, REQUESTER, refusal, T0 } from './transitions.fixture.ts';

const PARTIES = { matchId: 20, requestId: 10, requesterId: REQUESTER, matcherId: MATCHER };
const confirmed = () => aMatch({ status: 'confirmed', confirmedAt: T0 });

describe('dispute transitions', () => {
  it('open: a dispute on a confirmed match is announced', () => {
    expect(openDispute(confirmed(), aDispute())).toMatchObject([{
      type: 'exchange.dispute.opened', aggregateId: '20', payload: { ...PARTIES, disputeId: 30, openedById: MATCHER, reason: 'no_payment' },
    }]);
  });

  it('open: refused on a match not confirmed, and on one already disputed', () => {
    for (const status of ['pending', 'completed', 'cancelled', 'expired'] as const) {
      expect(refusal(() => mayOpenDispute(aMatch({ status }), false))).toEqual({
        status: 409, code: 'conflict', message: `This match is ${status}: only a confirmed match can be disputed`,
      });
    }
    expect(refusal(() => mayOpenDispute(confirmed(), true))).toEqual({ status: 409, code: 'dispute_exists', message: DISPUTE_EXISTS });
  });

  it('resolve as completed: the match completes (its own event first), the dispute records the decision', () => {
    const match = confirmed();
    const request = aRequest({ status: 'confirmed' });
    const dispute = aDispute();
    const events = resolveDispute(dispute, match, request, ADMIN, { outcome: 'completed', note: 'Paid after all' }, LATER);
    expect(events.map((e) => e.type)).toEqual(['exchange.match.completed', 'exchange.dispute.resolved']);
    expect(events[0]!.payload).not.toHaveProperty('completedById');
    expect(events[1]!.payload).toEqual({ ...PARTIES, disputeId: 30, outcome: 'completed', sanction: null });
    expect(match.status).toBe('completed');
    expect(request.status).toBe('completed');
    expect(dispute).toMatchObject({
      status: 'resolved', outcome: 'completed', adminNote: 'Paid after all', resolvedById: ADMIN, resolvedAt: LATER, sanctionUserId: null, sanctionKind: null,
    });
  });

  it('resolve as cancelled, with a sanction: the match ends with its request, cancelled by the admin', () => {
    const match = confirmed();
    const request = aRequest({ status: 'confirmed' });
    const dispute = aDispute();
    const sanction = { userId: REQUESTER, kind: 'warning' as const };
    const events = resolveDispute(dispute, match, request, ADMIN, { outcome: 'cancelled', note: 'No payment', sanction }, LATER);
    expect(events.map((e) => e.type)).toEqual(['exchange.match.cancelled', 'exchange.dispute.resolved']);
    expect(events[0]!.payload).toMatchObject({ reason: 'dispute-cancelled', cancelledById: ADMIN });
    expect(events[1]!.payload).toMatchObject({ outcome: 'cancelled', sanction });
    expect(match).toMatchObject({ status: 'cancelled', cancelledById: ADMIN });
    expect(request.status).toBe('cancelled');
    expect(dispute).toMatchObject({ status: 'resolved', sanctionUserId: REQUESTER, sanctionKind: 'warning' });
  });

  it.each(['completed', 'cancelled'] as const)('resolve after completion (%s): the match stays completed, only the dispute is announced', (outcome) => {
    const match = aMatch({ status: 'completed', confirmedAt: T0, completedAt: T0, completedById: MATCHER, receiptAskedId: REQUESTER, receiptAnswer: 'no' });
    const request = aRequest({ status: 'completed' });
    const dispute = aDispute({ openedById: REQUESTER });
    const events = resolveDispute(dispute, match, request, ADMIN, { outcome, note: 'Decided on the proofs' }, LATER);
    expect(events.map((e) => e.type)).toEqual(['exchange.dispute.resolved']);
    expect(events[0]!.payload).toEqual({ ...PARTIES, disputeId: 30, outcome, sanction: null });
    expect(match).toMatchObject({ status: 'completed', completedAt: T0, completedById: MATCHER });
    expect(request.status).toBe('completed');
    expect(dispute).toMatchObject({ status: 'resolved', outcome });
  });

  it('resolve: refused for a dispute already resolved, and for a sanction on someone not a party', () => {
    const resolved = aDispute({ status: 'resolved', outcome: 'completed' });
    const match = aMatch({ status: 'completed' });
    expect(refusal(() => resolveDispute(resolved, match, aRequest({ status: 'completed' }), ADMIN, { outcome: 'cancelled', note: 'x' }, LATER)))
      .toEqual({ status: 409, code: 'dispute_resolved', message: DISPUTE_RESOLVED });
    expect(match.status).toBe('completed');
    expect(refusal(() => checkSanction(aDispute(), { userId: 77, kind: 'warning' }))).toMatchObject({ status: 400 });
    expect(refusal(() => resolveDispute(aDispute(), confirmed(), aRequest(), ADMIN, { outcome: 'completed', note: 'x', sanction: { userId: 77, kind: 'suspension' } }, LATER)))
      .toMatchObject({ status: 400 });
  });
});
