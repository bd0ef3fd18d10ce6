import { beforeAll, expect, it } from 'vitest';
import { Analytics, type Currency, ErrorBody } from '@puente/contracts';
import { describeWithInfra } from '@puente/testkit';
import { ExchangeMatch } from './domain/exchange-match.ts';
import { ExchangeRateEntry } from './domain/exchange-rate.ts';
import { ExchangeRequest } from './domain/exchange-request.ts';
import { rated, tierChanged, trader, useExchangeService } from './testing/traders.ts';

type Trader = Awaited<ReturnType<typeof trader>>;
const UPGRADE = 'Advanced analytics are part of Premium. Upgrade to Premium to see your figures.';

describeWithInfra(['postgres'], 'GET /analytics/me: premium\'s advanced analytics', () => {
  const h = useExchangeService();
  let ana: Trader;
  let bruno: Trader;
  let carla: Trader;
  let dan: Trader;

  const get = (t?: Trader) => h.svc.app.inject({ method: 'GET', url: '/analytics/me', ...(t ? { headers: t.headers } : {}) });

  /** A request of `requester` taken by `matcher`, matched at `matchedAt` and completed at `completedAt`. */
  async function completed(requester: Trader, matcher: Trader, fromCurrency: Currency, amount: string, exchangeRate: string, matchedAt: string, completedAt: string) {
    const em = h.svc.ctx.orm.em.fork();
    const at = new Date(matchedAt);
    const requestId = await em.insert(ExchangeRequest, {
      userId: requester.userId, fromCurrency, toCurrency: fromCurrency === 'GBP' ? 'CLP' : 'GBP', amount, exchangeRate,
      status: 'completed', createdAt: at, updatedAt: at, openSince: at, verifiedOnly: false,
    });
    await em.insert(ExchangeMatch, {
      requestId: requestId as number, requesterId: requester.userId, matcherId: matcher.userId, status: 'completed',
      createdAt: at, updatedAt: new Date(completedAt), confirmedAt: at, completedAt: new Date(completedAt), remindersSent: 0,
    });
  }

  beforeAll(async () => {
    [ana, bruno, carla, dan] = [
      await trader(h.svc, 500, { firstName: 'Ana' }), await trader(h.svc, 501, { firstName: 'Bruno' }),
      await trader(h.svc, 502, { firstName: 'Carla' }), await trader(h.svc, 503, { firstName: 'Dan' }),
    ];
    await tierChanged(h.svc, ana.userId, 'premium');
    await rated(h.svc, bruno.userId, '4.50', 2);
    await rated(h.svc, carla.userId, '3.00', 1);
    const em = h.svc.ctx.orm.em.fork();
    for (const [rate, fetchedAt] of [['1200.0000', '2026-01-01T00:00:00Z'], ['1250.0000', '2026-01-20T00:00:00Z'], ['1300.0000', '2026-02-10T00:00:00Z']]) {
      await em.insert(ExchangeRateEntry, { rate: rate!, source: 'fixed', fetchedAt: new Date(fetchedAt!) });
    }
    // Matched before any stored rate: no market rate to compare with.
    await completed(ana, dan, 'GBP', '10.00', '1280.0000', '2025-12-31T23:00:00Z', '2026-01-01T00:30:00Z');
    // Market 1200: Ana sends pounds at 1218, 1.5 % more pesos.
    await completed(ana, bruno, 'GBP', '100.00', '1218.0000', '2026-01-10T10:00:00Z', '2026-01-10T11:00:00Z');
    // Market 1250: Ana takes Bruno's pounds, paying 50.55 × 1262.5 = 63,819.375 → 63,819 pesos, 1 % more than the market.
    await completed(bruno, ana, 'GBP', '50.55', '1262.5000', '2026-01-25T00:00:00Z', '2026-01-25T02:00:00Z');
    // Market 1300: Ana takes Carla's pesos, paying 130,000 ÷ 1300.1234 = 99.98974 → £99.99, at 0.0095 % over the market.
    await completed(carla, ana, 'CLP', '130000.00', '1300.1234', '2026-02-15T00:00:00Z', '2026-02-16T00:00:00Z');
    // Neither a match still in progress nor other users' exchanges count.
    const now = new Date();
    const inProgress = await em.insert(ExchangeRequest, {
      userId: ana.userId, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '20.00', exchangeRate: '1300.0000', status: 'confirmed',
      createdAt: now, updatedAt: now, openSince: now, verifiedOnly: false,
    });
    await em.insert(ExchangeMatch, { requestId: inProgress as number, requesterId: ana.userId, matcherId: dan.userId, status: 'confirmed', createdAt: now, updatedAt: now, remindersSent: 0 });
    await completed(bruno, carla, 'GBP', '200.00', '1300.0000', '2026-02-11T00:00:00Z', '2026-02-11T00:01:00Z');
  });

  it('answers a premium user their figures: volume per month, rates against the market, times and counterparties', async () => {
    const res = await get(ana);
    expect(res.statusCode, res.body).toBe(200);
    expect(Analytics.parse(res.json())).toEqual({
      completedExchanges: 4,
      months: [
        { month: '2026-01', exchanges: 3, sent: { GBP: 110, CLP: 63_819 }, received: { GBP: 50.55, CLP: 134_600 } },
        { month: '2026-02', exchanges: 1, sent: { GBP: 99.99, CLP: 0 }, received: { GBP: 0, CLP: 130_000 } },
      ],
      rates: {
        // (1.5 − 1 + 0.0094923…) ÷ 3 = 0.1698…
        averageAdvantagePercent: 0.17,
        trades: [
          { exchangeMatchId: expect.any(Number), completedAt: '2026-02-16T00:00:00.000Z', fromCurrency: 'GBP', exchangeRate: 1300.1234, marketRate: 1300, advantagePercent: 0.01 },
          { exchangeMatchId: expect.any(Number), completedAt: '2026-01-25T02:00:00.000Z', fromCurrency: 'CLP', exchangeRate: 1262.5, marketRate: 1250, advantagePercent: -1 },
          { exchangeMatchId: expect.any(Number), completedAt: '2026-01-10T11:00:00.000Z', fromCurrency: 'GBP', exchangeRate: 1218, marketRate: 1200, advantagePercent: 1.5 },
          { exchangeMatchId: expect.any(Number), completedAt: '2026-01-01T00:30:00.000Z', fromCurrency: 'GBP', exchangeRate: 1280, marketRate: null, advantagePercent: null },
        ],
      },
      // 1 h, 1.5 h, 2 h and 24 h: the median between the middle two.
      timeToCompletion: { medianSeconds: 6_300, averageSeconds: 25_650 },
      counterparties: {
        // Bruno 4.5 and Carla 3.0 (Dan has no rating yet): 3.75 → 3.8.
        averageRating: 3.8,
        list: [
          { userId: bruno.userId, firstName: 'Bruno', lastName: 'Tester', exchanges: 2, trustRating: 4.5, ratingCount: 2 },
          { userId: carla.userId, firstName: 'Carla', lastName: 'Tester', exchanges: 1, trustRating: 3, ratingCount: 1 },
          { userId: dan.userId, firstName: 'Dan', lastName: 'Tester', exchanges: 1, trustRating: null, ratingCount: 0 },
        ],
      },
    });
  });

  it('answers a premium user without completed exchanges empty figures', async () => {
    const eve = await trader(h.svc, 504);
    await tierChanged(h.svc, eve.userId, 'premium');
    expect(Analytics.parse((await get(eve)).json())).toEqual({
      completedExchanges: 0, months: [], rates: { averageAdvantagePercent: null, trades: [] },
      timeToCompletion: { medianSeconds: null, averageSeconds: null }, counterparties: { averageRating: null, list: [] },
    });
  });

  it('refuses a free user 403 with the upgrade message, and a premium user who cancelled too', async () => {
    const free = await get(bruno);
    expect([free.statusCode, ErrorBody.parse(free.json())]).toEqual([403, { message: UPGRADE, code: 'premium_required' }]);
    const frank = await trader(h.svc, 505);
    await tierChanged(h.svc, frank.userId, 'premium');
    expect((await get(frank)).statusCode).toBe(200);
    await tierChanged(h.svc, frank.userId, 'free');
    expect((await get(frank)).statusCode).toBe(403);
  });

  it('answers a visitor 401', async () => {
    const res = await get();
    expect([res.statusCode, ErrorBody.parse(res.json())]).toEqual([401, { message: 'Authentication required', code: 'unauthorized' }]);
  });
});
