/**
 * An idempotent rating (the platform's idempotency.ts): a rating sent again under its Idempotency-Key gets the first
 * answer, 201 again rather than 'Already Rated', and one rating is stored.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, IdempotencyRefusals, Rating } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { RatingSettings, ratingService } from './app.ts';
import { Rating as RatingRow } from './domain/rating.ts';

describeWithInfra(['postgres'], 'an idempotent rating', () => {
  const db = useFreshDatabase('rating');
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(ratingService(RatingSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url);
  });
  afterAll(async () => { await svc?.stop(); });

  it('answers a rating sent twice under one key the same, and stores one', async () => {
    const [ana, bea] = [1, 2];
    for (const userId of [ana, bea]) await svc.deliver(makeEvent('userRegistered', userId, { userId, firstName: `User${userId}`, lastName: 'Tester', role: 'user', referrerId: null }));
    const trade = { matchId: 7, requestId: 70, requesterId: ana, matcherId: bea, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' } as const;
    for (const name of ['matchCreated', 'matchConfirmed', 'matchCompleted'] as const) await svc.deliver(makeEvent(name, trade.matchId, trade));
    const headers = { ...await svc.as({ kind: 'user', userId: ana, role: 'user' }), 'idempotency-key': 'rate-7' };
    const rate = (rating: number) => svc.app.inject({ method: 'POST', url: '/ratings', headers, payload: { exchangeMatchId: trade.matchId, toUserId: bea, rating } });

    const first = await rate(5);
    const again = await rate(5);
    expect(first.statusCode, first.body).toBe(201);
    expect([again.statusCode, again.headers['idempotent-replayed'], Rating.parse(again.json())]).toEqual([201, 'true', Rating.parse(first.json())]);
    const changedMind = await rate(4);
    expect([changedMind.statusCode, ErrorBody.parse(changedMind.json()).code]).toEqual([409, IdempotencyRefusals.reused.code]);
    expect(await svc.ctx.orm.em.fork().count(RatingRow, { matchId: trade.matchId })).toBe(1);
  });
});
