/**
 * Subscription: each user's plan (free or premium) and its payment through Stripe. Owns schema `subscription`.
 * Premium is paid monthly: POST /api/create-subscription starts a Stripe subscription whose first payment the web
 * app confirms with the client secret; Stripe's signed webhooks (or, daily, the provider's own state) make the user
 * premium, past_due or free again, and every tier change is published (identity's subscriptionTier, the exchange's
 * plan limits). Without Stripe keys, outside production (or with PAYMENTS_TEST_MODE=true), a built-in test payment
 * mode takes Stripe's test card numbers and feeds Stripe-shaped signed events through the same webhook handler; in
 * production with neither, the payment routes answer 503 and nobody gets premium for free. It also keeps the support
 * requests, whose admins' queue puts premium users first (priority support, domain/support.ts).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { PaymentsMode } from '@puente/contracts';
import { blankAsUnset, defineService, testingAids, type ServiceContext } from '@puente/platform';
import { ProviderEventSchema, SubscriptionSchema } from './domain/subscription.ts';
import type { PaymentProvider } from './domain/payments.ts';
import { StripePayments, type StripeSettings } from './domain/stripe-payments.ts';
import { TestPayments, TestSubscriptionSchema } from './domain/test-payments.ts';
import { RECONCILE_EVERY_MS, RECONCILE_SUBSCRIPTIONS, reconcileSubscriptionsJob } from './jobs/reconcile-subscriptions.ts';
import { erasePaymentCustomerJob } from './jobs/erase-payment-customer.ts';
import { consumers } from './events/consumers.ts';
import { subscriptionRoutes } from './routes/subscription.ts';
import { supportRoutes } from './routes/support.ts';
import { SupportRequestSchema } from './domain/support.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { testCheckoutRoutes } from './routes/test-checkout.ts';
import { personalDataRoutes } from './routes/personal-data.ts';

export { RECONCILE_SUBSCRIPTIONS };

const setting = blankAsUnset;

/** The subscription service's settings (besides the service settings every process reads). */
export const SubscriptionSettings = z.object({
  STRIPE_SECRET_KEY: setting(z.string().trim().regex(/^(sk|rk)_(test|live)_\w+$/, 'STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_... or sk_live_...)').optional()),
  STRIPE_PUBLISHABLE_KEY: setting(z.string().trim().regex(/^pk_(test|live)_\w+$/, 'STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_...)').optional()),
  STRIPE_WEBHOOK_SECRET: setting(z.string().trim().regex(/^whsec_\w+$/, 'STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_...)').optional()),
  /** The premium price; else the active price with STRIPE_PRICE_LOOKUP_KEY, created (£9.99 a month) if missing. */
  STRIPE_PRICE_ID: setting(z.string().trim().regex(/^price_\w+$/, 'STRIPE_PRICE_ID must be a Stripe price id (price_...)').optional()),
  STRIPE_PRICE_LOOKUP_KEY: setting(z.string().trim().min(1).max(200).default('puente_premium_monthly')),
  /** 'true' allows the test payment mode in production (a demo); it is the default elsewhere when no key is set. */
  PAYMENTS_TEST_MODE: setting(z.enum(['true', 'false'], { error: 'PAYMENTS_TEST_MODE must be true or false' }).optional()),
  NODE_ENV: setting(z.string().optional()),
}).refine((s) => !s.STRIPE_SECRET_KEY || s.STRIPE_WEBHOOK_SECRET, {
  message: 'STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (stripe listen prints one for a local install)', path: ['STRIPE_WEBHOOK_SECRET'],
});
export type SubscriptionSettings = z.infer<typeof SubscriptionSettings>;

/** Stripe with a key; else the test payment mode where the testing aids allow it (the demo, or PAYMENTS_TEST_MODE=true); else none. */
export function paymentMode(s: SubscriptionSettings): PaymentsMode {
  if (s.STRIPE_SECRET_KEY) return 'stripe';
  return testingAids(s).testPayments ? 'test' : 'unavailable';
}

export interface SubscriptionOptions {
  /** The clock of the routes and the reconciliation (tests move it past period ends). */
  now?: () => Date;
  /** Where Stripe's API is (tests point the client at a fake server). */
  stripeApi?: StripeSettings['api'];
}

export function subscriptionService(settings: SubscriptionSettings = SubscriptionSettings.parse({}), { now = () => new Date(), stripeApi }: SubscriptionOptions = {}) {
  const mode = paymentMode(settings);
  let payments: PaymentProvider | null = null;
  /** The provider, made once the service's database is known (the test mode keeps its records there). */
  const providerFor = (ctx: Pick<ServiceContext, 'orm'>): PaymentProvider | null => {
    if (payments || mode === 'unavailable') return payments;
    payments = mode === 'stripe'
      ? new StripePayments({
        secretKey: settings.STRIPE_SECRET_KEY!, publishableKey: settings.STRIPE_PUBLISHABLE_KEY ?? null,
        webhookSecret: settings.STRIPE_WEBHOOK_SECRET!, priceId: settings.STRIPE_PRICE_ID ?? null,
        priceLookupKey: settings.STRIPE_PRICE_LOOKUP_KEY, ...(stripeApi ? { api: stripeApi } : {}),
      })
      // Inside a route's transaction the test records join it: embedded PGlite serves one connection at a time, so a
      // second connection would wait for the transaction that waits for it.
      : new TestPayments(() => ctx.orm.em.fork({ keepTransactionContext: true }), settings.STRIPE_WEBHOOK_SECRET ?? null);
    return payments;
  };
  return defineService({
    name: 'subscription',
    entities: [SubscriptionSchema, ProviderEventSchema, TestSubscriptionSchema, SupportRequestSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    jobs: [reconcileSubscriptionsJob(() => payments, now), erasePaymentCustomerJob(() => payments)],
    schedules: [{ job: RECONCILE_SUBSCRIPTIONS, everyMs: RECONCILE_EVERY_MS, schedulerId: RECONCILE_SUBSCRIPTIONS }],
    async onStart(ctx) {
      // The premium price is found (or made) at start; if Stripe cannot be reached now, the first checkout retries.
      if (payments instanceof StripePayments) {
        await payments.premiumPrice().catch((err: unknown) => ctx.logger.warn({ err }, 'could not look up the premium price in Stripe yet'));
      }
    },
    async routes(app, ctx) {
      const deps = { ctx, now, mode, payments: providerFor(ctx) };
      if (mode === 'unavailable') ctx.logger.warn('no STRIPE_SECRET_KEY and no test payment mode (PAYMENTS_TEST_MODE=true): the payment routes answer 503 payments_not_configured');
      if (mode === 'test') ctx.logger.info('test payment mode: no real payment (test cards 4242 4242 4242 4242, 4000 0000 0000 0002)');
      await app.register(subscriptionRoutes(deps));
      await app.register(supportRoutes(deps));
      await app.register(webhookRoutes(deps));
      await app.register(personalDataRoutes);
      if (deps.payments instanceof TestPayments) await app.register(testCheckoutRoutes({ ...deps, payments: deps.payments }));
    },
  });
}
