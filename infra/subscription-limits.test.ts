/**
 * The plan limits follow the tier through the bus: a user who pays for premium in the test payment mode may post a
 * £300 request and a third request in one day at the exchange; once the cancelled period has ended (the daily
 * reconciliation) they are back on the free limits. The subscription and exchange services' real definitions, on
 * one bus, with one clock.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CreateSubscriptionResponse, ErrorBody, ExchangeRequest, SubscriptionInfo, topicOf } from '@puente/contracts';
import { createLogger, InProcessBus, makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { exchangeService, ExchangeSettings } from '@puente/exchange';
import { RECONCILE_SUBSCRIPTIONS, subscriptionService, SubscriptionSettings } from '@puente/subscription';

const DAY = 86_400_000;
const ANA = 7;

describeWithInfra(['postgres'], 'plan limits follow the subscription', () => {
  const db = useFreshDatabase('subscription_limits');
  const logger = createLogger({ name: 'subscription-limits-test', level: process.env.LOG_LEVEL ?? 'warn' });
  const bus = new InProcessBus({ logger });
  let clock = new Date('2026-03-10T09:00:00.000Z');
  const now = () => clock;
  let subscription: TestService;
  let exchange: TestService;

  beforeAll(async () => {
    subscription = await startTestService(subscriptionService(SubscriptionSettings.parse({}), { now }), db.url, { bus });
    exchange = await startTestService(exchangeService(ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off' }), { now }), db.url, { bus });
    // Ana registers and adds both accounts (identity's and accounts' events).
    await bus.publish(topicOf('identity'), [makeEvent('userRegistered', ANA, { userId: ANA, firstName: 'Ana', lastName: 'Diaz', role: 'user', referrerId: 1 })]);
    await bus.publish(topicOf('accounts'), (['GBP', 'CLP'] as const).map((currency, i) => makeEvent('bankAccountAdded', 70 + i, { accountId: 70 + i, userId: ANA, currency })));
    await bus.drain();
  }, 60_000);
  afterAll(async () => {
    await exchange?.stop();
    await subscription?.stop();
    await bus.close();
  });

  /** Ana as the gateway presents her to `svc` (a token is for the one service it is sent to). */
  const as = (svc: TestService = exchange) => svc.as({ kind: 'user', userId: ANA, role: 'user' });
  const post = async (amount: number) => exchange.app.inject({
    method: 'POST', url: '/exchange-requests', headers: await as(), payload: { fromCurrency: 'GBP', toCurrency: 'CLP', amount, exchangeRate: 1275 },
  });
  const act = async (url: string, payload?: object) => subscription.app.inject({ method: 'POST', url, headers: await as(subscription), ...(payload ? { payload } : {}) });
  /** Waits until the exchange has heard of the tier (the outbox relay and the bus are asynchronous). */
  const tierAtExchange = (tier: 'free' | 'premium') => vi.waitFor(async () => {
    const res = await exchange.app.inject({ method: 'GET', url: '/exchange-requests/limits', headers: await as() });
    expect((res.json() as { tier: string }).tier).toBe(tier);
  }, { timeout: 10_000, interval: 50 });

  it('lets a premium user post £300 and a third request in a day, and the free limits apply again after the period', async () => {
    const refused = await post(300);
    expect(refused.statusCode).toBe(403);
    expect(ErrorBody.parse(refused.json()).message).toMatch(/limit|Upgrade/);

    const { clientSecret } = CreateSubscriptionResponse.parse((await act('/create-subscription')).json());
    expect((await act('/subscription/test-checkout/confirm', { clientSecret, cardNumber: '4242 4242 4242 4242' })).statusCode).toBe(200);
    await tierAtExchange('premium');
    const onPremium = [];
    for (const amount of [300, 50, 60]) {
      const res = await post(amount);
      expect(res.statusCode, res.body).toBe(201);
      onPremium.push(ExchangeRequest.parse(res.json()));
    }

    // She cancels; she keeps premium until the period ends, then the reconciliation moves her to free.
    expect((await act('/cancel-subscription')).statusCode).toBe(200);
    const info = SubscriptionInfo.parse((await subscription.app.inject({ method: 'GET', url: '/subscription/info', headers: await as(subscription) })).json());
    clock = new Date(Date.parse(info.currentPeriodEnd!) + DAY);
    await subscription.ctx.jobs.enqueue(RECONCILE_SUBSCRIPTIONS, {}); // the daily run, on the moved clock
    await tierAtExchange('free');
    // What she posted on premium stays open, £300 included; new requests follow the free limits.
    const big = await exchange.app.inject({ method: 'GET', url: `/exchange-requests/${onPremium[0]!.id}`, headers: await as() });
    expect(ExchangeRequest.parse(big.json())).toMatchObject({ amount: 300, status: 'open' });
    const over = await post(300);
    expect(over.statusCode).toBe(403);
    expect(ErrorBody.parse(over.json()).message).toMatch(/limit|Upgrade/);
    // Two in a day on the free plan, a third refused (the ones posted on premium were days ago).
    expect((await post(100)).statusCode).toBe(201);
    expect((await post(100)).statusCode).toBe(201);
    expect((await post(100)).statusCode).toBe(403);
  });
});
