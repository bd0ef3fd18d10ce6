/**
 * A user's plan and payment state in their data download, and what their account's deletion does to them: premium
 * ends at once, the payment references go, and the payment provider forgets the customer. In the test payment mode
 * and through Stripe (a fake server speaking its API).
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SubscriptionPersonalData } from '@puente/contracts';
import { makeEvent, readEvent, type Caller } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, startFakeStripe, useFreshDatabase, type FakeStripe } from '@puente/testkit';
import { subscribers, type Subscriber } from './testing/subscribers.ts';
import { SubscriptionSettings, subscriptionService } from './app.ts';
import { TestSubscription } from './domain/test-payments.ts';

const WEBHOOK_SECRET = 'whsec_personaldatasuitesecret';
const IDENTITY: Caller = { kind: 'service', service: 'identity' };

/** The service's routes and events as a deletion test reads them. */
function deletionTests(svc: () => TestService) {
  const seen = new Set<string>();
  return {
    async personalData(userId: number, caller: Caller = IDENTITY) {
      const res = await svc().app.inject({ method: 'GET', url: `/internal/personal-data/subscription?userId=${userId}`, headers: await svc().as(caller) });
      expect(res.statusCode, res.body).toBe(200);
      return SubscriptionPersonalData.parse(res.json());
    },
    /** The plan's ends announced since the last call. */
    async cancellations() {
      await svc().ctx.relay.flush();
      return svc().published().filter((e) => !seen.has(e.id) && seen.add(e.id)).flatMap((e) => {
        const off = readEvent('subscriptionCancelled', e);
        return off ? [off.userId] : [];
      });
    },
    async deleteAccount(u: Subscriber) {
      const deleted = makeEvent('userDeleted', u.userId, { userId: u.userId });
      await svc().deliver(deleted, deleted);
    },
  };
}

describeWithInfra(['postgres'], 'a user\'s subscription in the test payment mode: downloaded, and ended with the account', () => {
  const db = useFreshDatabase('subscription_personal_data');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(subscriptionService(SubscriptionSettings.parse({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET })), db.url); });
  afterAll(async () => { await svc?.stop(); });
  const { user, post, info, checkout } = subscribers(() => svc, 100);
  const { personalData, cancellations, deleteAccount } = deletionTests(() => svc);

  it('answers identity with the plan, payment state and provider references, and nobody else', async () => {
    const u = await user();
    expect(await personalData(u.userId)).toEqual({
      tier: 'free', status: 'none', currentPeriodEnd: null, cancelAtPeriodEnd: false, paymentCustomerId: null, paymentSubscriptionId: null, supportRequests: [],
    });
    const res = await svc.app.inject({ method: 'GET', url: `/internal/personal-data/subscription?userId=${u.userId}`, headers: await svc.as({ kind: 'service', service: 'exchange' }) });
    expect(res.statusCode).toBe(403);
  });

  it('ends a deleted user\'s premium at once, drops the references and erases the test customer, once', async () => {
    const u = await user();
    const { clientSecret, subscriptionId } = await checkout(u);
    expect((await post(u, '/subscription/test-checkout/confirm', { clientSecret, cardNumber: '4242 4242 4242 4242' })).statusCode).toBe(200);
    const before = await personalData(u.userId);
    expect(before).toEqual({
      tier: 'premium', status: 'active', currentPeriodEnd: expect.any(String), cancelAtPeriodEnd: false,
      paymentCustomerId: expect.stringMatching(/^cus_test_/), paymentSubscriptionId: subscriptionId, supportRequests: [],
    });
    await cancellations();

    await deleteAccount(u);
    expect(await cancellations()).toEqual([u.userId]);
    expect(await personalData(u.userId)).toEqual({
      tier: 'free', status: 'cancelled', currentPeriodEnd: null, cancelAtPeriodEnd: false, paymentCustomerId: null, paymentSubscriptionId: null, supportRequests: [],
    });
    expect((await info(u)).tier).toBe('free');
    await expect.poll(() => svc.ctx.orm.em.fork().count(TestSubscription, { customerId: before.paymentCustomerId! })).toBe(0);
  });

  it('leaves a free user\'s plan free, with nothing to announce or erase', async () => {
    const u = await user();
    await deleteAccount(u);
    expect(await cancellations()).toEqual([]);
    expect((await personalData(u.userId)).tier).toBe('free');
  });
});

describeWithInfra(['postgres'], 'a user\'s subscription through Stripe, ended with the account', () => {
  const db = useFreshDatabase('subscription_personal_data');
  let stripe: FakeStripe;
  let svc: TestService;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    const settings = SubscriptionSettings.parse({ STRIPE_SECRET_KEY: 'sk_test_suite', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY: 'pk_test_suite' });
    svc = await startTestService(subscriptionService(settings, { stripeApi: stripe.api }), db.url);
  });
  afterAll(async () => {
    await svc?.stop();
    await stripe?.stop();
  });
  const { user, checkout, info } = subscribers(() => svc, 200);
  const { personalData, cancellations, deleteAccount } = deletionTests(() => svc);
  const webhook = (event: object) => {
    const payload = JSON.stringify(event);
    return svc.app.inject({
      method: 'POST', url: '/webhooks/stripe', payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
    });
  };

  it('deletes the Stripe customer (cancelling its subscription at once) and ignores what Stripe then says of it', async () => {
    const u = await user();
    const { subscriptionId } = await checkout(u);
    stripe.pay(subscriptionId);
    expect((await webhook(stripe.event('invoice.paid', stripe.invoiceOf(subscriptionId)))).statusCode).toBe(200);
    const { paymentCustomerId } = await personalData(u.userId);
    expect([paymentCustomerId, (await info(u)).tier]).toEqual([expect.stringMatching(/^cus_/), 'premium']);
    await cancellations();

    await deleteAccount(u);
    expect(await cancellations()).toEqual([u.userId]);
    await expect.poll(() => stripe.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/customers/${paymentCustomerId}`).length).toBe(1);
    expect(stripe.subscription(subscriptionId).status).toBe('canceled');
    // Stripe's word on the cancelled subscription finds no user to apply to.
    expect((await webhook(stripe.event('customer.subscription.deleted', stripe.subscription(subscriptionId)))).statusCode).toBe(200);
    expect(await cancellations()).toEqual([]);
    expect(await personalData(u.userId)).toMatchObject({ tier: 'free', paymentCustomerId: null, paymentSubscriptionId: null });
  });
});
