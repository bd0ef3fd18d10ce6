/**
 * The built-in test payment mode (no Stripe keys, not in production unless PAYMENTS_TEST_MODE=true): subscriptions
 * are this service's own records, a checkout is paid with Stripe's test card numbers, and a payment turns into a
 * Stripe-shaped event, signed like Stripe signs webhooks and handed to the same webhook handler as Stripe's own.
 * A period lasts 30 days and renews by itself unless cancelled.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import type { ProviderSubscription, PaymentProvider } from './payments.ts';
import { catchUpTo, firstPaymentSucceeded, started } from './test-subscription-transitions.ts';

export const TEST_PERIOD_DAYS = 30;
const PERIOD_MS = TEST_PERIOD_DAYS * 86_400_000;
/** The API version the events say they were rendered with (the client's pinned one). */
const API_VERSION = '2026-10-28.endive';

export const TestSubscriptionSchema = defineEntity({
  name: 'TestSubscription',
  tableName: 'test_subscription',
  properties: {
    id: p.text().primary(),
    userId: p.integer().index('test_subscription_user_id_index'),
    customerId: p.text(),
    clientSecret: p.text().unique(),
    status: p.text().$type<Stripe.Subscription.Status>(),
    currentPeriodEnd: p.datetime().nullable(),
    cancelAtPeriodEnd: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class TestSubscription extends TestSubscriptionSchema.class {}
TestSubscriptionSchema.setClass(TestSubscription);

const token = (bytes: number) => randomBytes(bytes).toString('hex');
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function view(s: TestSubscription): ProviderSubscription {
  return {
    id: s.id, status: s.status, clientSecret: s.status === 'incomplete' ? s.clientSecret : null,
    currentPeriodEnd: s.currentPeriodEnd ?? null, cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  };
}

/** An invoice of the pinned API version's shape, as much of it as the handler reads. */
function invoice(s: TestSubscription, status: 'paid' | 'open', period: { start: Date; end: Date }) {
  return {
    id: `in_test_${token(8)}`, object: 'invoice', customer: s.customerId, status, livemode: false,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: s.id, metadata: { userId: String(s.userId) } } },
    lines: { object: 'list', has_more: false, data: [{ object: 'line_item', period: { start: seconds(period.start), end: seconds(period.end) } }] },
  };
}

export class TestPayments implements PaymentProvider {
  readonly testMode = true;
  readonly publishableKey = null;
  /** The secret test events are signed with (STRIPE_WEBHOOK_SECRET when set, else one per process). */
  readonly webhookSecret: string;
  private readonly em: () => EntityManager;

  constructor(em: () => EntityManager, webhookSecret: string | null) {
    this.em = em;
    this.webhookSecret = webhookSecret ?? `whsec_test_${token(16)}`;
  }

  async createCustomer(): Promise<string> {
    return `cus_test_${token(8)}`;
  }

  async startSubscription(customerId: string, userId: number) {
    const em = this.em();
    const id = `pi_test_${token(12)}`;
    const created = em.create(TestSubscription, {
      id: `sub_test_${token(12)}`, userId, customerId, clientSecret: `${id}_secret_${token(12)}`,
      ...started(),
    });
    await em.flush();
    return view(created);
  }

  /** Its state at `now`: a paid period that ended renews, unless it was to cancel at its end. */
  async getSubscription(id: string, now: Date) {
    const em = this.em();
    const s = await em.findOne(TestSubscription, { id });
    if (!s) return null;
    if (catchUpTo(s, now, PERIOD_MS)) await em.flush();
    return view(s);
  }

  async setCancelAtPeriodEnd(id: string, cancel: boolean) {
    const em = this.em();
    const s = await em.findOneOrFail(TestSubscription, { id });
    s.cancelAtPeriodEnd = cancel;
    await em.flush();
    return view(s);
  }

  async eraseCustomer(customerId: string) {
    await this.em().nativeDelete(TestSubscription, { customerId });
  }

  verifyEvent(rawBody: Buffer, signature: string, now: Date): Stripe.Event {
    return Stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, undefined, undefined, now.getTime());
  }

  /** The user's open checkout with this client secret, or null. */
  async checkout(userId: number, clientSecret: string): Promise<TestSubscription | null> {
    return this.em().findOne(TestSubscription, { clientSecret, userId });
  }

  /**
   * Records the first payment's outcome and renders it as Stripe would notify it: invoice.paid (the subscription is
   * active for 30 days) or invoice.payment_failed. Returns the webhook body and its Stripe-Signature header.
   */
  async pay(s: TestSubscription, outcome: 'paid' | 'declined', now: Date): Promise<{ body: Buffer; signature: string }> {
    const period = { start: now, end: new Date(now.getTime() + PERIOD_MS) };
    if (outcome === 'paid') {
      const em = this.em();
      firstPaymentSucceeded(await em.findOneOrFail(TestSubscription, { id: s.id }), period.end);
      await em.flush();
    }
    const event = {
      id: `evt_test_${token(12)}`, object: 'event', api_version: API_VERSION, created: seconds(now), livemode: false,
      pending_webhooks: 1, request: { id: null, idempotency_key: null },
      type: outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed',
      data: { object: invoice(s, outcome === 'paid' ? 'paid' : 'open', period) },
    };
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret, timestamp: seconds(now) });
    return { body: Buffer.from(payload), signature };
  }
}
