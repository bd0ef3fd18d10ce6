import { beforeEach, expect, it } from 'vitest';
import { ErrorBody, ExchangeLimits, ExchangeMatch, ExchangeRequest, type Currency } from '@puente/contracts';
import { describeWithInfra } from '@puente/testkit';
import { tierChanged, trader, useExchangeService } from './testing/traders.ts';

type Trader = Awaited<ReturnType<typeof trader>>;
const NOW = '2026-03-10T12:00:00.000Z';
const FREE = { tier: 'free', maxPerExchange: { GBP: 200, CLP: 255_000 }, perDay: 2, perMonth: 10 } as const;
const PREMIUM = { tier: 'premium', maxPerExchange: { GBP: 10_000, CLP: 12_750_000 }, perDay: 20, perMonth: 200 } as const;
const PER_DAY = 'Free plan limit reached: 2 exchanges per day. Upgrade to Premium for up to 20.';
const PER_MONTH = 'Free plan limit reached: 10 exchanges per month. Upgrade to Premium for up to 200.';
const body = (fromCurrency: Currency, amount: number) =>
  ({ fromCurrency, toCurrency: fromCurrency === 'GBP' ? 'CLP' : 'GBP', amount, exchangeRate: 1275 });

describeWithInfra(['postgres'], 'plan limits', () => {
  const h = useExchangeService(NOW);
  let nextUser = 100;
  const newTrader = () => trader(h.svc, nextUser++);
  beforeEach(() => { h.setClock(NOW); });

  const post = (t: Trader, currency: Currency, amount: number) =>
    h.svc.app.inject({ method: 'POST', url: '/exchange-requests', headers: t.headers, payload: body(currency, amount) });
  const posted = async (t: Trader, currency: Currency = 'GBP', amount = 10) => {
    const res = await post(t, currency, amount);
    expect(res.statusCode, res.body).toBe(201);
    return ExchangeRequest.parse(res.json());
  };
  /** A 403 for the plan, with 'limit' in its message (and, on the free plan, 'Upgrade'). */
  const refused = async (t: Trader, message: string, currency: Currency = 'GBP', amount = 10) => {
    const res = await post(t, currency, amount);
    expect(res.statusCode, res.body).toBe(403);
    expect(ErrorBody.parse(res.json())).toEqual({ message, code: 'plan_limit' });
    expect(message).toContain('limit');
  };
  const limits = async (t: Trader) => {
    const res = await h.svc.app.inject({ method: 'GET', url: '/exchange-requests/limits', headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    return ExchangeLimits.parse(res.json());
  };
  const resets = (day: string, month: string) => ({ resetsAt: { day, month } });

  it('GET /exchange-requests/limits: the free plan for a new user, with the UTC day and month it resets at', async () => {
    const ana = await newTrader();
    expect(await limits(ana)).toEqual({
      ...FREE, usedToday: 0, usedThisMonth: 0, ...resets('2026-03-11T00:00:00.000Z', '2026-04-01T00:00:00.000Z'),
    });
    await posted(ana);
    expect(await limits(ana)).toEqual({
      ...FREE, usedToday: 1, usedThisMonth: 1, ...resets('2026-03-11T00:00:00.000Z', '2026-04-01T00:00:00.000Z'),
    });
    h.setClock('2026-12-31T23:30:00.000Z');
    expect(await limits(ana)).toEqual({
      ...FREE, usedToday: 0, usedThisMonth: 0, ...resets('2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'),
    });
  });

  it('refuses an amount over the free plan\'s per-exchange limit in the request\'s own currency', async () => {
    const [ana, bob] = [await newTrader(), await newTrader()];
    await refused(ana, 'Free plan limit reached: at most £200 per exchange. Upgrade to Premium for up to £10,000.', 'GBP', 200.01);
    await refused(ana, 'Free plan limit reached: at most 255,000 CLP per exchange. Upgrade to Premium for up to 12,750,000 CLP.', 'CLP', 255_001);
    // 255,000 is within the limit when it is pesos, and £200 when it is pounds.
    expect((await posted(ana, 'CLP', 255_000)).amount).toBe(255_000);
    expect((await posted(bob, 'GBP', 200)).amount).toBe(200);
    expect((await limits(ana)).usedToday).toBe(1);
  });

  it('allows 2 exchanges a UTC day, cancelled requests included, and 2 more the next day', async () => {
    const ana = await newTrader();
    h.setClock('2026-03-10T00:00:00.000Z');
    const first = await posted(ana);
    h.setClock('2026-03-10T18:00:00.000Z');
    await posted(ana);
    await refused(ana, PER_DAY);
    const cancel = await h.svc.app.inject({ method: 'PATCH', url: `/exchange-requests/${first.id}/cancel`, headers: ana.headers });
    expect(cancel.statusCode).toBe(200);
    h.setClock('2026-03-10T23:59:59.999Z');
    await refused(ana, PER_DAY);
    expect(PER_DAY).toContain('Upgrade');
    h.setClock('2026-03-11T00:00:00.000Z');
    await posted(ana);
    expect(await limits(ana)).toEqual({
      ...FREE, usedToday: 1, usedThisMonth: 3, ...resets('2026-03-12T00:00:00.000Z', '2026-04-01T00:00:00.000Z'),
    });
  });

  it('counts a request accepted as an exchange of the one who accepted it', async () => {
    const [ana, bob] = [await newTrader(), await newTrader()];
    const request = await posted(ana);
    const accept = await h.svc.app.inject({ method: 'POST', url: '/exchange-matches', headers: bob.headers, payload: { exchangeRequestId: request.id } });
    expect(accept.statusCode, accept.body).toBe(201);
    expect(ExchangeMatch.parse(accept.json()).matchedById).toBe(bob.userId);
    expect((await limits(bob)).usedToday).toBe(1);
    await posted(bob);
    await refused(bob, PER_DAY);
  });

  it('allows 10 exchanges a UTC month, and 10 more from the 1st', async () => {
    const ana = await newTrader();
    for (const day of [25, 26, 27, 28, 29]) {
      h.setClock(`2026-05-${day}T09:00:00.000Z`);
      await posted(ana);
      await posted(ana);
    }
    h.setClock('2026-05-30T09:00:00.000Z');
    await refused(ana, PER_MONTH);
    expect(PER_MONTH).toContain('Upgrade');
    h.setClock('2026-05-31T23:59:59.999Z');
    await refused(ana, PER_MONTH);
    expect(await limits(ana)).toEqual({
      ...FREE, usedToday: 0, usedThisMonth: 10, ...resets('2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'),
    });
    h.setClock('2026-06-01T00:00:00.000Z');
    await posted(ana);
    expect((await limits(ana)).usedThisMonth).toBe(1);
  });

  it('gives premium limits after a subscription is activated, and the free ones back after it is cancelled', async () => {
    const ana = await newTrader();
    await posted(ana);
    await posted(ana);
    await refused(ana, PER_DAY);
    await tierChanged(h.svc, ana.userId, 'premium');
    expect(await limits(ana)).toEqual({
      ...PREMIUM, usedToday: 2, usedThisMonth: 2, ...resets('2026-03-11T00:00:00.000Z', '2026-04-01T00:00:00.000Z'),
    });
    expect((await posted(ana, 'GBP', 10_000)).amount).toBe(10_000);
    expect((await posted(ana, 'CLP', 12_750_000)).amount).toBe(12_750_000);
    await refused(ana, 'Premium plan limit reached: at most £10,000 per exchange.', 'GBP', 10_000.01);
    await refused(ana, 'Premium plan limit reached: at most 12,750,000 CLP per exchange.', 'CLP', 12_750_001);
    expect((await limits(ana)).usedToday).toBe(4);

    await tierChanged(h.svc, ana.userId, 'free');
    expect(await limits(ana)).toEqual({
      ...FREE, usedToday: 4, usedThisMonth: 4, ...resets('2026-03-11T00:00:00.000Z', '2026-04-01T00:00:00.000Z'),
    });
    await refused(ana, 'Free plan limit reached: at most £200 per exchange. Upgrade to Premium for up to £10,000.', 'GBP', 10_000);
    await refused(ana, PER_DAY);
  });

  it('lets exactly one of two concurrent creates take the last slot of the day', async () => {
    const ana = await newTrader();
    await posted(ana);
    const results = await Promise.all([post(ana, 'GBP', 10), post(ana, 'CLP', 10_000)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403]);
    expect(ErrorBody.parse(results.find((r) => r.statusCode === 403)!.json())).toEqual({ message: PER_DAY, code: 'plan_limit' });
    const mine = await h.svc.app.inject({ method: 'GET', url: '/exchange-requests/user', headers: ana.headers });
    expect(mine.headers['x-total-count']).toBe('2');
    expect((await limits(ana)).usedToday).toBe(2);
  });
});
