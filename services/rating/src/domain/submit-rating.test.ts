import { describe, expect, it } from 'vitest';
import { Rating } from './rating.ts';
import { Trade, TRADE_STATUSES } from './trade.ts';
import { mayRate, NOT_COMPLETED, NOT_THE_OTHER_PARTY, ratingSubmitted } from './submit-rating.ts';
import { refusal } from '@puente/platform/testing';

const REQUESTER = 1;
const MATCHER = 2;

const aTrade = (fields: Partial<Trade> = {}) =>
  Object.assign(new Trade(), { matchId: 20, requestId: 10, requesterId: REQUESTER, matcherId: MATCHER, status: 'completed' } satisfies Partial<Trade>, fields);

describe('submitting a rating', () => {
  it('either party of a completed match may rate the other', () => {
    expect(() => mayRate(aTrade(), REQUESTER, MATCHER)).not.toThrow();
    expect(() => mayRate(aTrade(), MATCHER, REQUESTER)).not.toThrow();
  });

  it('refused (403) for anyone but the other party: oneself or a third user', () => {
    for (const to of [REQUESTER, 3]) {
      expect(refusal(() => mayRate(aTrade(), REQUESTER, to))).toEqual({ status: 403, code: 'forbidden', message: NOT_THE_OTHER_PARTY });
    }
  });

  it.each(TRADE_STATUSES.filter((s) => s !== 'completed'))('refused (409) while the match is %s', (status) => {
    expect(refusal(() => mayRate(aTrade({ status }), REQUESTER, MATCHER))).toEqual({ status: 409, code: 'conflict', message: NOT_COMPLETED });
  });

  it('announces the rating with the rated user\'s standing, keyed by the rated user, and its request when known', () => {
    const row = Object.assign(new Rating(), { id: 7, matchId: 20, fromUserId: REQUESTER, toUserId: MATCHER, rating: 4, comment: null });
    expect(ratingSubmitted(row, aTrade(), { count: 3, average: '4.3333' })).toMatchObject({
      type: 'rating.rating.submitted', aggregateId: String(MATCHER),
      payload: { ratingId: 7, matchId: 20, requestId: 10, fromUserId: REQUESTER, toUserId: MATCHER, rating: 4, toUserAverage: '4.3333', toUserCount: 3 },
    });
    expect(ratingSubmitted(row, aTrade({ requestId: null }), { count: 1, average: '4.0000' }).payload).not.toHaveProperty('requestId');
  });

  it('a first rating held by a dispute announces count 0 (no average counts yet)', () => {
    const row = Object.assign(new Rating(), { id: 7, matchId: 20, fromUserId: REQUESTER, toUserId: MATCHER, rating: 4, comment: null });
    expect(ratingSubmitted(row, aTrade(), { count: 0, average: null }).payload).toMatchObject({ toUserAverage: '0.0000', toUserCount: 0 });
  });
});
