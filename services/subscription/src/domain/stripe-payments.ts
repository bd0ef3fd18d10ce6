/**
 * Stripe, through the official `stripe` client (every call; none of its protocol is written here). The premium
 * price is STRIPE_PRICE_ID, or the active price with the lookup key, created (£9.99 a month) when there is none.
 */
import Stripe from 'stripe';
import { SubscriptionPlans } from '@puente/contracts';
import { providerSubscription, type PaymentProvider } from './payments.ts';

export interface StripeSettings {
  secretKey: string;
  publishableKey: string | null;
  webhookSecret: string;
  priceId: string | null;
  priceLookupKey: string;
  /** Where the API is (tests point it at a fake server); Stripe's own by default. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

const PREMIUM_PENCE = Math.round(SubscriptionPlans.premium.priceGbpPerMonth * 100);

export class StripePayments implements PaymentProvider {
  readonly testMode = false;
  readonly publishableKey: string | null;
  private readonly stripe: Stripe;
  private readonly settings: StripeSettings;
  private price: Promise<string> | undefined;

  constructor(settings: StripeSettings) {
    this.settings = settings;
    this.publishableKey = settings.publishableKey;
    this.stripe = new Stripe(settings.secretKey, { maxNetworkRetries: 2, timeout: 20_000, ...settings.api });
  }

  /** The premium price id, looked up once (a failed lookup is tried again next time); called at start too. */
  premiumPrice(): Promise<string> {
    if (this.settings.priceId) return Promise.resolve(this.settings.priceId);
    this.price ??= this.findOrCreatePrice().catch((err: unknown) => {
      this.price = undefined;
      throw err;
    });
    return this.price;
  }

  private async findOrCreatePrice(): Promise<string> {
    const lookupKey = this.settings.priceLookupKey;
    const found = await this.stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    const created = await this.stripe.prices.create({
      currency: 'gbp', unit_amount: PREMIUM_PENCE, recurring: { interval: 'month' }, lookup_key: lookupKey,
      product_data: { name: 'Puente Premium' },
    }, { idempotencyKey: `price-${lookupKey}` });
    return created.id;
  }

  async createCustomer(userId: number): Promise<string> {
    // The idempotency key makes a retried or racing creation return the same customer.
    const customer = await this.stripe.customers.create({ metadata: { userId: String(userId) } }, { idempotencyKey: `customer-${userId}` });
    return customer.id;
  }

  async startSubscription(customerId: string, userId: number) {
    const subscription = await this.stripe.subscriptions.create({
      customer: customerId,
      items: [{ price: await this.premiumPrice() }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      metadata: { userId: String(userId) },
      expand: ['latest_invoice.confirmation_secret'],
    });
    return providerSubscription(subscription);
  }

  async getSubscription(id: string) {
    try {
      return providerSubscription(await this.stripe.subscriptions.retrieve(id, { expand: ['latest_invoice.confirmation_secret'] }));
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') return null;
      throw err;
    }
  }

  async setCancelAtPeriodEnd(id: string, cancel: boolean) {
    return providerSubscription(await this.stripe.subscriptions.update(id, { cancel_at_period_end: cancel }));
  }

  /** Deleting a Stripe customer cancels its subscriptions at once and removes its saved payment methods. */
  async eraseCustomer(customerId: string) {
    try {
      await this.stripe.customers.del(customerId);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') return;
      throw err;
    }
  }

  verifyEvent(rawBody: Buffer, signature: string): Stripe.Event {
    return Stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret);
  }
}
