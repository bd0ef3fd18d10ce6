/**
 * The card payment provider behind premium, as a port: Stripe (domain/stripe-payments.ts) when STRIPE_SECRET_KEY is
 * set, else the built-in test payment mode (domain/test-payments.ts) where it is allowed. Both hand the webhook
 * handler the same thing — a Stripe event whose signature checked out — so the production code path is the one a
 * test checkout exercises.
 */
import type Stripe from 'stripe';

/** What this service keeps of a provider subscription. */
export interface ProviderSubscription {
  id: string;
  status: Stripe.Subscription.Status;
  /** The client secret of its open first payment, while there is one. */
  clientSecret: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface PaymentProvider {
  readonly testMode: boolean;
  readonly publishableKey: string | null;
  /** A customer for the user (the user id in its metadata); called once per user. */
  createCustomer(userId: number): Promise<string>;
  /** A premium subscription waiting for its first payment (`default_incomplete`). */
  startSubscription(customerId: string, userId: number): Promise<ProviderSubscription>;
  /** null when the provider does not know it. */
  getSubscription(id: string, now: Date): Promise<ProviderSubscription | null>;
  setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<ProviderSubscription>;
  /**
   * Forgets the customer, for a user who deleted their account: their subscriptions end at once and the payment
   * methods kept for them go. A customer the provider does not know (any more) is no error.
   */
  eraseCustomer(customerId: string): Promise<void>;
  /** The event a webhook body carries, once its signature checks out; throws otherwise. */
  verifyEvent(rawBody: Buffer, signature: string, now: Date): Stripe.Event;
}

/** Provider statuses after which the subscription pays for nothing more: the user is back on the free plan. */
export const ENDED_STATUSES: readonly Stripe.Subscription.Status[] = ['canceled', 'unpaid', 'incomplete_expired'];

/** The period end Stripe puts on a subscription's first item (there is no top-level one any more). */
export function periodEndOf(subscription: Pick<Stripe.Subscription, 'items'>): Date | null {
  const end = subscription.items?.data?.[0]?.current_period_end;
  return typeof end === 'number' ? new Date(end * 1000) : null;
}

/** The subscription an invoice bills (recent API versions put it under parent.subscription_details). */
export function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const ref = invoice.parent?.subscription_details?.subscription;
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}

/** The end of the period an invoice pays for (its subscription line's period). */
export function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  const end = invoice.lines?.data?.[0]?.period?.end;
  return typeof end === 'number' ? new Date(end * 1000) : null;
}

export function providerSubscription(s: Stripe.Subscription): ProviderSubscription {
  const invoice = typeof s.latest_invoice === 'object' ? s.latest_invoice : null;
  return {
    id: s.id,
    status: s.status,
    clientSecret: s.status === 'incomplete' ? invoice?.confirmation_secret?.client_secret ?? null : null,
    currentPeriodEnd: periodEndOf(s),
    cancelAtPeriodEnd: s.cancel_at_period_end,
  };
}
