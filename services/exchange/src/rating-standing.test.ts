/** The trust rating on a trader's card follows the rating service's standing changed without a rating (holds). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ExchangeRequest } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { startExchangeOnClock, trader } from './testing/traders.ts';

describeWithInfra(['postgres'], 'exchange: a rating standing changed', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  const clock = new Date('2026-07-01T10:00:00.000Z');
  beforeAll(async () => { svc = await startExchangeOnClock(db.url, () => clock); });
  afterAll(async () => { await svc?.stop(); });

  it('a hold lowers the count and may clear the trust rating; a release brings it back (taken as it comes)', async () => {
    const poster = await trader(svc, 1);
    const viewer = await trader(svc, 2);
    const posted = await svc.app.inject({ method: 'POST', url: '/exchange-requests', headers: poster.headers, payload: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } });
    expect(posted.statusCode, posted.body).toBe(201);
    const requestId = ExchangeRequest.parse(posted.json()).id;
    const card = async () => {
      const res = await svc.app.inject({ method: 'GET', url: `/exchange-requests/${requestId}`, headers: viewer.headers });
      expect(res.statusCode, res.body).toBe(200);
      return ExchangeRequest.parse(res.json()).user?.trustRating;
    };
    const userId = poster.userId;
    await svc.deliver(makeEvent('ratingSubmitted', userId, { ratingId: 1, matchId: 1, fromUserId: 2, toUserId: userId, rating: 4, toUserAverage: '4.0000', toUserCount: 1 }));
    expect(await card()).toBe(4);
    await svc.deliver(makeEvent('ratingStandingChanged', userId, { userId, average: null, count: 0 }));
    expect(await card()).toBeNull();
    await svc.deliver(makeEvent('ratingStandingChanged', userId, { userId, average: '4.2500', count: 1 }));
    expect(await card()).toBe(4.3);
  });
});
