/**
 * Premium in the built-in test payment mode, on real Postgres: a checkout paid with Stripe's test cards, its outcome
 * signed like a Stripe webhook and applied by the same handler; cancelling at the period's end and resuming; the
 * daily reconciliation ending a cancelled period; the webhook's signature, replays and late events; and no payments
 * at all in production without keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import {
  CancelSubscriptionResponse, CardMessages, ErrorBody, Message, PAYMENTS_NOT_CONFIGURED, SubscriptionInfo, SubscriptionPlans, SubscriptionRefusal, TEST_MODE_NOTICE,
} from '@puente/contracts';
import { readEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { subscribers, type Subscriber } from './testing/subscribers.ts';
import { SubscriptionSettings, subscriptionService } from './app.ts';
import { reconcileSubscriptions } from './jobs/reconcile-subscriptions.ts';
import { TestPayments } from './domain/test-payments.ts';
import { Subscription } from './domain/subscription.ts';
import { ALREADY_PREMIUM, NOTHING_TO_CANCEL } from './routes/subscription.ts';
import { CARD_DECLINED } from './routes/test-checkout.ts';
import { INVALID_SIGNATURE } from './routes/webhooks.ts';

const WEBHOOK_SECRET = 'whsec_testsecretforthesuite';
const DAY = 86_400_000;

describeWithInfra(['postgres'], 'subscriptions in the test payment mode', () => {
  const db = useFreshDatabase('subscription');
  let svc: TestService;
  const clock = new Date('2026-03-10T12:00:00.000Z');
  beforeAll(async () => {
    svc = await startTestService(subscriptionService(SubscriptionSettings.parse({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }), { now: () => clock }), db.url);
  });
  afterAll(async () => { await svc?.stop(); });

  const { user, post, info, checkout } = subscribers(() => svc, 100);
  type User = Subscriber;
  const pay = (u: User, clientSecret: string, cardNumber: string) => post(u, '/subscription/test-checkout/confirm', { clientSecret, cardNumber });
  const refusal = (res: { statusCode: number; json(): unknown }, status: number) => {
    expect(res.statusCode).toBe(status);
    return ErrorBody.parse(res.json());
  };
  const seen = new Set<string>();
  /** The tier events published since the last call. */
  async function tierEvents() {
    await svc.ctx.relay.flush();
    type Seen = { userId: number; tier?: string; until?: string; type?: string };
    return svc.published().filter((e) => !seen.has(e.id) && seen.add(e.id)).flatMap((e): Seen[] => {
      const on = readEvent('subscriptionActivated', e);
      if (on) return [{ userId: on.userId, tier: on.tier, until: on.currentPeriodEnd }];
      const off = readEvent('subscriptionCancelled', e) ?? readEvent('subscriptionPaymentFailed', e);
      return off ? [{ userId: off.userId, type: e.type }] : [];
    });
  }
  async function premium(u: User) {
    const { clientSecret } = await checkout(u);
    expect((await pay(u, clientSecret!, '4242 4242 4242 4242')).statusCode).toBe(200);
  }

  it('shows a new user the free plan, no subscription, and that payments are in test mode', async () => {
    const ana = await user();
    expect(await info(ana)).toEqual({
      tier: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, plan: SubscriptionPlans.free,
      payments: 'test', paymentNotice: 'Test mode — no real payment', publishableKey: null,
    });
  });

  it('takes a checkout through a declined card, a wrong number, then 4242: premium for 30 days, announced once', async () => {
    const ana = await user();
    await tierEvents();
    const first = await checkout(ana);
    expect(first.clientSecret).toMatch(/^pi_test_\w+_secret_\w+$/);
    // A second click while unpaid reuses the open checkout.
    expect(await checkout(ana)).toEqual(first);
    expect((await info(ana)).status).toBe('incomplete');

    expect(refusal(await pay(ana, first.clientSecret!, '4000 0000 0000 0002'), 402)).toEqual({ message: CARD_DECLINED, code: 'card_declined' });
    expect(refusal(await pay(ana, first.clientSecret!, '1234 5678 9012 3456'), 400).code).toBe('validation_failed');
    expect(await info(ana)).toMatchObject({ tier: 'free', status: 'incomplete' });
    // Someone else's checkout is nobody's business.
    const bob = await user();
    expect(refusal(await pay(bob, first.clientSecret!, '4242424242424242'), 404).message).toBe('Checkout not found');

    const paid = await pay(ana, first.clientSecret!, '4242424242424242');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(Message.parse(paid.json()).message).toBe('Payment succeeded: you are on Premium.');
    const until = new Date(clock.getTime() + 30 * DAY).toISOString();
    expect(await info(ana)).toEqual({
      tier: 'premium', status: 'active', currentPeriodEnd: until, cancelAtPeriodEnd: false, plan: SubscriptionPlans.premium,
      payments: 'test', paymentNotice: 'Test mode — no real payment', publishableKey: null,
    });
    expect(await tierEvents()).toEqual([{ userId: ana.userId, tier: 'premium', until }]);
    expect(refusal(await pay(ana, first.clientSecret!, '4242424242424242'), 409).message).toBe('This checkout is already paid');
    expect(refusal(await post(ana, '/create-subscription'), 409)).toEqual({ message: ALREADY_PREMIUM, code: SubscriptionRefusal.alreadyPremium });
  });

  it('refuses an expired card as Stripe does: an expiry in the past before any charge, and the expired test card', async () => {
    const ana = await user(); // the clock is 2026-03-10
    await tierEvents();
    const { clientSecret } = await checkout(ana);
    const payWith = (cardNumber: string, expiry: string) => post(ana, '/subscription/test-checkout/confirm', { clientSecret, cardNumber, expiry });
    for (const expiry of ['02/26', '12/2025']) {
      expect(refusal(await payWith('4242 4242 4242 4242', expiry), 402)).toEqual({ message: CardMessages.expiryPast, code: SubscriptionRefusal.expiredCard });
    }
    const malformed = refusal(await payWith('4242 4242 4242 4242', '13/30'), 400);
    expect({ code: malformed.code, errors: malformed.errors }).toEqual({ code: 'validation_failed', errors: [{ field: 'expiry', message: CardMessages.expiryInvalid }] });
    expect(refusal(await payWith('4000 0000 0000 0069', '12/34'), 402)).toEqual({ message: CardMessages.expired, code: SubscriptionRefusal.expiredCard });
    expect(await info(ana)).toMatchObject({ tier: 'free', status: 'incomplete' });
    expect(await tierEvents()).toEqual([]);

    // Good through the end of its month.
    expect((await payWith('4242 4242 4242 4242', '03/26')).statusCode).toBe(200);
    expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'active' });
  });

  it('cancels at the period\'s end (premium until then), resumes on a new checkout, and ends at the period\'s end', async () => {
    const ana = await user();
    await premium(ana);
    await tierEvents();
    const cancelled = await post(ana, '/cancel-subscription');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const end = new Date(clock.getTime() + 30 * DAY);
    expect(CancelSubscriptionResponse.parse(cancelled.json()).message)
      .toBe(`Your subscription is cancelled: you keep Premium until ${end.toISOString().slice(0, 10)}, then move to the free plan.`);
    expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'active', cancelAtPeriodEnd: true });
    expect((await post(ana, '/cancel-subscription')).statusCode).toBe(200); // twice is the same

    // Changing one's mind: nothing to pay, premium goes on.
    expect((await checkout(ana)).clientSecret).toBeNull();
    expect((await info(ana)).cancelAtPeriodEnd).toBe(false);
    expect((await post(ana, '/cancel-subscription')).statusCode).toBe(200);

    // Nothing changes before the end; just after it, the daily reconciliation moves her to free.
    expect(await reconcileSubscriptions(svc.ctx, testPayments(), new Date(end.getTime() - 1000))).toBe(0);
    // (Earlier tests' premium users, on the same dates, renew in the same run.)
    expect(await reconcileSubscriptions(svc.ctx, testPayments(), new Date(end.getTime() + 1000))).toBeGreaterThanOrEqual(1);
    expect(await info(ana)).toMatchObject({ tier: 'free', status: 'cancelled', cancelAtPeriodEnd: false, plan: SubscriptionPlans.free });
    expect((await tierEvents()).filter((e) => e.userId === ana.userId)).toEqual([{ userId: ana.userId, type: 'subscription.subscription.cancelled' }]);
  });

  it('renews a period that ended without a cancellation (the test mode\'s card pays again)', async () => {
    const ana = await user();
    await premium(ana);
    const end = new Date(clock.getTime() + 30 * DAY);
    expect(await reconcileSubscriptions(svc.ctx, testPayments(), new Date(end.getTime() + DAY))).toBeGreaterThanOrEqual(1);
    expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'active', currentPeriodEnd: new Date(end.getTime() + 30 * DAY).toISOString() });
  });

  it('refuses to cancel what a free user does not have: 409, never a 5xx', async () => {
    expect(refusal(await post(await user(), '/cancel-subscription'), 409)).toEqual({ message: NOTHING_TO_CANCEL, code: 'conflict' });
  });

  describe('the webhook', () => {
    const sign = (payload: string, at = clock) => Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(at.getTime() / 1000) });
    const deliver = (payload: string, signature: string) => svc.app.inject({
      method: 'POST', url: '/webhooks/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload,
    });
    let n = 0;
    const event = (type: string, object: object, created: Date) => JSON.stringify({
      id: `evt_suite_${++n}`, object: 'event', type, created: Math.floor(created.getTime() / 1000), livemode: false,
      api_version: '2026-10-28.endive', pending_webhooks: 1, request: { id: null, idempotency_key: null }, data: { object },
    });
    async function subscriptionOf(u: User) {
      return (await svc.ctx.orm.em.fork().findOneOrFail(Subscription, { userId: u.userId })).providerSubscriptionId!;
    }

    it('refuses a bad signature with 400 and changes nothing', async () => {
      const ana = await user();
      await checkout(ana);
      const body = event('customer.subscription.deleted', { id: await subscriptionOf(ana), object: 'subscription', status: 'canceled' }, clock);
      for (const signature of ['t=1,v1=abc', sign(body.replace('canceled', 'active')), '']) {
        expect(refusal(await deliver(body, signature), 400).message).toBe(INVALID_SIGNATURE);
      }
      expect((await info(ana)).status).toBe('incomplete');
    });

    it('applies a replayed event once, and never moves a subscription back for an older event arriving late', async () => {
      const ana = await user();
      await premium(ana);
      await tierEvents();
      const id = await subscriptionOf(ana);
      const failed = event('invoice.payment_failed', {
        id: 'in_x', object: 'invoice', status: 'open', parent: { type: 'subscription_details', subscription_details: { subscription: id } },
        lines: { object: 'list', data: [] },
      }, new Date(clock.getTime() + DAY));
      for (let i = 0; i < 3; i++) expect((await deliver(failed, sign(failed))).statusCode).toBe(200);
      expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'past_due' });
      expect(await tierEvents()).toEqual([{ userId: ana.userId, type: 'subscription.payment.failed' }]);

      const deleted = event('customer.subscription.deleted', { id, object: 'subscription', status: 'canceled', cancel_at_period_end: false }, new Date(clock.getTime() + 3 * DAY));
      const olderUpdate = event('customer.subscription.updated', {
        id, object: 'subscription', status: 'active', cancel_at_period_end: false, items: { object: 'list', data: [{ current_period_end: Math.floor(clock.getTime() / 1000) + 60 * 86_400 }] },
      }, new Date(clock.getTime() + 2 * DAY));
      expect((await deliver(deleted, sign(deleted))).statusCode).toBe(200);
      expect((await deliver(olderUpdate, sign(olderUpdate))).statusCode).toBe(200);
      expect(await info(ana)).toMatchObject({ tier: 'free', status: 'cancelled' });
      expect(await tierEvents()).toEqual([{ userId: ana.userId, type: 'subscription.subscription.cancelled' }]);
    });
  });

  function testPayments(): TestPayments {
    // The service's own provider instance is internal; a second one over the same records acts the same.
    return new TestPayments(() => svc.ctx.orm.em.fork(), WEBHOOK_SECRET);
  }
});

describeWithInfra(['postgres'], 'subscriptions in production without payment keys', () => {
  const db = useFreshDatabase('subscription_prod');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(subscriptionService(SubscriptionSettings.parse({ NODE_ENV: 'production' })), db.url); });
  afterAll(async () => { await svc?.stop(); });
  const { user, post, info } = subscribers(() => svc, 500);

  it('tells the web that payments are unavailable, refuses the checkout with 503 payments_not_configured, and grants nothing', async () => {
    const ana = await user();
    const free = SubscriptionInfo.parse({
      tier: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, plan: SubscriptionPlans.free,
      payments: 'unavailable', paymentNotice: null, publishableKey: null,
    });
    expect(await info(ana)).toEqual(free);
    await svc.ctx.relay.flush();
    const before = svc.published().length;

    for (const url of ['/create-subscription', '/cancel-subscription']) {
      const res = await post(ana, url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 503 });
      expect(ErrorBody.parse(res.json())).toEqual({ message: PAYMENTS_NOT_CONFIGURED, code: SubscriptionRefusal.paymentsNotConfigured });
    }
    // The test card route is not there at all.
    const confirm = await post(ana, '/subscription/test-checkout/confirm', { clientSecret: 'pi_test_x_secret_y', cardNumber: '4242424242424242' });
    expect(confirm.statusCode).toBe(404);

    // Still free, no checkout started, nothing announced.
    expect(await info(ana)).toEqual(free);
    const row = await svc.ctx.orm.em.fork().findOneOrFail(Subscription, { userId: ana.userId });
    expect({ tier: row.tier, status: row.status, customerId: row.customerId, providerSubscriptionId: row.providerSubscriptionId })
      .toEqual({ tier: 'free', status: 'none', customerId: null, providerSubscriptionId: null });
    await svc.ctx.relay.flush();
    expect(svc.published().slice(before)).toEqual([]);
  });
});

/** The test card pays wherever the test payment mode is on: the demo's default, and production only when asked for. */
describeWithInfra(['postgres'], 'the test card', () => {
  describe.each([
    ['in the demo (npm start)', { NODE_ENV: 'development' }],
    ['in production with PAYMENTS_TEST_MODE=true', { NODE_ENV: 'production', PAYMENTS_TEST_MODE: 'true' }],
  ])('%s', (_, env) => {
    const db = useFreshDatabase('subscription_test_mode');
    let svc: TestService;
    beforeAll(async () => { svc = await startTestService(subscriptionService(SubscriptionSettings.parse(env)), db.url); });
    afterAll(async () => { await svc?.stop(); });
    const { user, post, info, checkout } = subscribers(() => svc, 700);

    it('4242 4242 4242 4242 makes the user premium, in the test payment mode the web is told of', async () => {
      const ana = await user();
      expect(await info(ana)).toMatchObject({ tier: 'free', payments: 'test', paymentNotice: TEST_MODE_NOTICE });
      const { clientSecret } = await checkout(ana);
      const paid = await post(ana, '/subscription/test-checkout/confirm', { clientSecret, cardNumber: '4242 4242 4242 4242' });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(Message.parse(paid.json())).toEqual({ message: 'Payment succeeded: you are on Premium.' });
      expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'active', plan: SubscriptionPlans.premium, payments: 'test' });
    });
  });
});
