/**
 * Premium through Stripe, against a fake Stripe server speaking the real API (the official client pointed at it) and
 * webhooks signed as Stripe signs them: upgrade, a failed renewal, cancelling at the period's end, the period's end
 * (by webhook, or by the daily reconciliation when a webhook was missed), replays, bad signatures, late events.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Stripe from 'stripe';
import { ErrorBody, SubscriptionPlans } from '@puente/contracts';
import { readEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, parseStripeForm as parseForm, startFakeStripe, useFreshDatabase, type FakeStripe } from '@puente/testkit';
import { subscribers, type Subscriber } from './testing/subscribers.ts';
import { RECONCILE_SUBSCRIPTIONS, SubscriptionSettings, subscriptionService } from './app.ts';
import { Subscription } from './domain/subscription.ts';
import { INVALID_SIGNATURE } from './routes/webhooks.ts';

const WEBHOOK_SECRET = 'whsec_stripesuitesecret';

describeWithInfra(['postgres'], 'subscriptions through Stripe', () => {
  const db = useFreshDatabase('subscription');
  let stripe: FakeStripe;
  let svc: TestService;
  let clock = new Date();
  beforeAll(async () => {
    stripe = await startFakeStripe();
    const settings = SubscriptionSettings.parse({ STRIPE_SECRET_KEY: 'sk_test_suite', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY: 'pk_test_suite' });
    svc = await startTestService(subscriptionService(settings, { now: () => clock, stripeApi: stripe.api }), db.url);
  });
  afterAll(async () => {
    await svc?.stop();
    await stripe?.stop();
  });

  const { user, post, info, checkout } = subscribers(() => svc, 200);
  type User = Subscriber;
  /** Stripe's delivery of an event: the raw JSON with its Stripe-Signature header. */
  const deliver = (event: object, secret = WEBHOOK_SECRET) => {
    const payload = JSON.stringify(event);
    return svc.app.inject({
      method: 'POST', url: '/webhooks/stripe', payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    });
  };
  const seen = new Set<string>();
  async function tierEvents() {
    await svc.ctx.relay.flush();
    return svc.published().filter((e) => !seen.has(e.id) && seen.add(e.id)).flatMap((e): { userId: number; type: string; until?: string }[] => {
      const on = readEvent('subscriptionActivated', e);
      if (on) return [{ userId: on.userId, type: e.type, until: on.currentPeriodEnd }];
      const off = readEvent('subscriptionCancelled', e) ?? readEvent('subscriptionPaymentFailed', e);
      return off ? [{ userId: off.userId, type: e.type }] : [];
    });
  }
  /** A premium user: checkout, paid, Stripe's invoice.paid delivered. */
  async function premium(u: User) {
    const { subscriptionId } = await checkout(u);
    stripe.pay(subscriptionId);
    expect((await deliver(stripe.event('invoice.paid', stripe.invoiceOf(subscriptionId)))).statusCode).toBe(200);
    return subscriptionId;
  }
  const periodEnd = (subscriptionId: string) => new Date((stripe.invoiceOf(subscriptionId) as { lines: { data: { period: { end: number } }[] } }).lines.data[0]!.period.end * 1000).toISOString();

  it('finds the premium price by its lookup key at start, and makes it (£9.99 a month) when there is none', () => {
    expect(stripe.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/prices', 'POST /v1/prices']);
    expect(stripe.requests[0]!.body).toMatchObject({ lookup_keys: ['puente_premium_monthly'], active: 'true' });
    expect(stripe.requests[1]!.body).toMatchObject({ currency: 'gbp', unit_amount: '999', recurring: { interval: 'month' }, lookup_key: 'puente_premium_monthly' });
  });

  it('shows Stripe\'s publishable key, no test mode, and has no test checkout', async () => {
    const ana = await user();
    expect(await info(ana)).toEqual({
      tier: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, plan: SubscriptionPlans.free, payments: 'stripe', paymentNotice: null, publishableKey: 'pk_test_suite',
    });
    expect((await post(ana, '/subscription/test-checkout/confirm', { clientSecret: 'pi_x_secret_y', cardNumber: '4242424242424242' })).statusCode).toBe(404);
  });

  it('upgrades: one customer, a default_incomplete subscription to the premium price; premium once invoice.paid arrives', async () => {
    const ana = await user();
    await tierEvents();
    const before = stripe.requests.length;
    const first = await checkout(ana);
    expect(first.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(await checkout(ana)).toEqual(first); // a second click reuses the open checkout
    const calls = stripe.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls.filter((c) => c === 'POST /v1/customers')).toHaveLength(1);
    expect(calls.filter((c) => c === 'POST /v1/subscriptions')).toHaveLength(1);
    const created = stripe.requests.slice(before).find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
    expect(created.body).toMatchObject({ payment_behavior: 'default_incomplete', metadata: { userId: String(ana.userId) } });
    expect(stripe.subscription(first.subscriptionId)).toMatchObject({ status: 'incomplete' });

    stripe.pay(first.subscriptionId);
    const paid = stripe.event('invoice.paid', stripe.invoiceOf(first.subscriptionId));
    expect((await deliver(paid)).statusCode).toBe(200);
    expect((await deliver(paid)).statusCode).toBe(200); // Stripe retries: applied once
    const until = periodEnd(first.subscriptionId);
    expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'active', currentPeriodEnd: until, cancelAtPeriodEnd: false });
    expect(await tierEvents()).toEqual([{ userId: ana.userId, type: 'subscription.subscription.activated', until }]);

    // A second user's checkout reuses the price made for the first.
    const bob = await user();
    const mark = stripe.requests.length;
    await checkout(bob);
    expect(stripe.requests.slice(mark).filter((r) => r.method === 'POST' && r.path === '/v1/prices')).toEqual([]);
  });

  it('keeps a user premium while a renewal fails (past_due, told once), then free when Stripe gives up', async () => {
    const ana = await user();
    const id = await premium(ana);
    await tierEvents();
    stripe.failPayment(id);
    const failed = stripe.event('invoice.payment_failed', stripe.invoiceOf(id));
    for (let i = 0; i < 2; i++) expect((await deliver(failed)).statusCode).toBe(200);
    expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'past_due' });
    expect((await deliver(stripe.event('customer.subscription.updated', { ...stripe.subscription(id), status: 'unpaid' }))).statusCode).toBe(200);
    expect(await info(ana)).toMatchObject({ tier: 'free', status: 'cancelled' });
    expect(await tierEvents()).toEqual([
      { userId: ana.userId, type: 'subscription.payment.failed' },
      { userId: ana.userId, type: 'subscription.subscription.cancelled' },
    ]);
  });

  it('cancels at the period\'s end through Stripe, stays premium until then, and is free once Stripe deletes it', async () => {
    const ana = await user();
    const id = await premium(ana);
    expect((await post(ana, '/cancel-subscription')).statusCode).toBe(200);
    expect(stripe.subscription(id)).toMatchObject({ cancel_at_period_end: true });
    expect((await deliver(stripe.event('customer.subscription.updated', stripe.subscription(id)))).statusCode).toBe(200);
    expect(await info(ana)).toMatchObject({ tier: 'premium', status: 'active', cancelAtPeriodEnd: true });

    stripe.endPeriod(id);
    const deleted = stripe.event('customer.subscription.deleted', stripe.subscription(id)) as { created: number };
    expect((await deliver(deleted)).statusCode).toBe(200);
    expect(await info(ana)).toMatchObject({ tier: 'free', status: 'cancelled', cancelAtPeriodEnd: false });
    // A late, older update (premium, active) changes nothing.
    const late = { ...stripe.event('customer.subscription.updated', { ...stripe.subscription(id), status: 'active' }), created: deleted.created - 60 };
    expect((await deliver(late)).statusCode).toBe(200);
    expect((await info(ana)).tier).toBe('free');
  });

  it('moves a user whose period ended to free on the daily reconciliation when the webhook was missed', async () => {
    const ana = await user();
    const id = await premium(ana);
    expect((await post(ana, '/cancel-subscription')).statusCode).toBe(200);
    stripe.endPeriod(id); // Stripe cancels it; its webhook never arrives
    clock = new Date(Date.parse(periodEnd(id)) + 60_000);
    await svc.ctx.jobs.enqueue(RECONCILE_SUBSCRIPTIONS, {});
    await vi.waitFor(async () => expect((await info(ana)).tier).toBe('free'), { timeout: 10_000, interval: 50 });
    const row = await svc.ctx.orm.em.fork().findOneOrFail(Subscription, { userId: ana.userId });
    expect(row.status).toBe('cancelled');
  });

  it('is a fake that answers as Stripe does: a wrong key is refused, an unknown id is resource_missing, a form is parsed', async () => {
    const client = (key: string) => new Stripe(key, { ...stripe.api, maxNetworkRetries: 0 });
    await expect(client('sk_live_wrong').customers.create({})).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const unknown = await client('sk_test_suite').subscriptions.retrieve('sub_nope').catch((err: unknown) => err);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((unknown as { code?: string }).code).toBe('resource_missing');
    expect(parseForm('items[0][price]=price_1&expand[0]=latest_invoice.confirmation_secret&metadata[userId]=7&lookup_keys[]=a&lookup_keys[]=b')).toEqual({
      items: [{ price: 'price_1' }], expand: ['latest_invoice.confirmation_secret'], metadata: { userId: '7' }, lookup_keys: ['a', 'b'],
    });
  });

  describe('the webhook\'s signature', () => {
    it('refuses a body signed with another secret, a tampered body, or none: 400, nothing changes', async () => {
      const ana = await user();
      const { subscriptionId } = await checkout(ana);
      stripe.pay(subscriptionId);
      const paid = stripe.event('invoice.paid', stripe.invoiceOf(subscriptionId));
      expect(ErrorBody.parse((await deliver(paid, 'whsec_someoneelse')).json()).message).toBe(INVALID_SIGNATURE);
      const payload = JSON.stringify(paid);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      for (const [body, header] of [[payload.replace('"paid"', '"open"'), signature], [payload, '']] as const) {
        const res = await svc.app.inject({ method: 'POST', url: '/webhooks/stripe', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': header } });
        expect(res.statusCode).toBe(400);
      }
      expect((await info(ana)).tier).toBe('free');
    });
  });
});
