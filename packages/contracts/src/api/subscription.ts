/**
 * Subscriptions: the free and premium plans and the premium checkout.
 * Calls: GET /api/subscription/info, POST /api/create-subscription, POST /api/cancel-subscription.
 */
import { z } from 'zod';
import { ClpAmount, Count, GbpAmount, IsoDateTime, Message, SubscriptionTier, requiredText } from './common.ts';
import { SupportRequest } from './support.ts';

/** A plan and its limits (spec section 9). */
export const Plan = z.object({
  tier: SubscriptionTier,
  name: z.string(),
  priceGbpPerMonth: GbpAmount,
  maxPerExchange: z.object({ GBP: GbpAmount, CLP: ClpAmount }),
  exchangesPerDay: Count,
  exchangesPerMonth: Count,
  features: z.array(z.string()),
});
export type Plan = z.infer<typeof Plan>;

/** The two plans, with the spec's numbers. */
export const SubscriptionPlans: Readonly<Record<SubscriptionTier, Plan>> = {
  free: {
    tier: 'free',
    name: 'Free',
    priceGbpPerMonth: 0,
    maxPerExchange: { GBP: 200, CLP: 255_000 },
    exchangesPerDay: 2,
    exchangesPerMonth: 10,
    features: ['ads'],
  },
  premium: {
    tier: 'premium',
    name: 'Premium',
    priceGbpPerMonth: 9.99,
    maxPerExchange: { GBP: 10_000, CLP: 12_750_000 },
    exchangesPerDay: 20,
    exchangesPerMonth: 200,
    features: ['no ads', 'priority support', 'advanced analytics'],
  },
};

/**
 * The state of the premium subscription: 'none' for a user who never started one, 'incomplete' while the checkout
 * is not paid, 'active' while premium, 'past_due' when a renewal failed, 'cancelled' once cancelled.
 */
export const SubscriptionStatus = z.enum(['none', 'incomplete', 'active', 'past_due', 'cancelled']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/**
 * How premium is paid: through Stripe, in the built-in test payment mode (test cards, no real payment), or not at all
 * (production without Stripe keys or PAYMENTS_TEST_MODE=true: starting a checkout is refused with 503
 * `payments_not_configured`, and the web app says so instead of showing a card form).
 */
export const PaymentsMode = z.enum(['stripe', 'test', 'unavailable']);
export type PaymentsMode = z.infer<typeof PaymentsMode>;

/** The `code` of each refusal of the payment actions, so the web app can word it in the user's language. */
export const SubscriptionRefusal = {
  paymentsNotConfigured: 'payments_not_configured', cardDeclined: 'card_declined', expiredCard: 'expired_card',
  /** 409 to starting a checkout while premium (and not set to end): the web shows the plan instead. */
  alreadyPremium: 'already_premium',
} as const;
/** The message of a 503 `payments_not_configured`. */
export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured';

/**
 * GET /api/subscription/info (the spec names no fields): the tier in force, the subscription's state and the plan's
 * limits. Usage against them is the exchange service's (GET /api/exchange-requests/limits), not repeated here.
 */
export const SubscriptionInfo = z.object({
  tier: SubscriptionTier,
  status: SubscriptionStatus,
  currentPeriodEnd: IsoDateTime.nullable(),
  cancelAtPeriodEnd: z.boolean(),
  plan: Plan,
  /** How premium is paid here; 'unavailable': no checkout can start. */
  payments: PaymentsMode,
  /** What the payment form must say about payments: TEST_MODE_NOTICE in the test payment mode, else null. */
  paymentNotice: z.string().nullable(),
  /** Stripe's publishable key for the payment form, when set. */
  publishableKey: z.string().nullable(),
});
export type SubscriptionInfo = z.infer<typeof SubscriptionInfo>;

export const TEST_MODE_NOTICE = 'Test mode — no real payment';

/**
 * POST /api/create-subscription, 200 (an action: the subscription is not premium until its first payment is
 * confirmed). `clientSecret` confirms that payment with the card payment provider; null when a premium subscription
 * set to end was resumed instead (nothing to pay now).
 */
export const CreateSubscriptionResponse = z.object({ clientSecret: z.string().min(1).nullable(), subscriptionId: z.string().min(1) });
export type CreateSubscriptionResponse = z.infer<typeof CreateSubscriptionResponse>;

/** Stripe's words for a card's expiry, as its card form and its API refuse one. */
export const CardMessages = {
  expiryInvalid: "Your card's expiration date is incomplete: use MM/YY.",
  expiryPast: "Your card's expiration date is in the past.",
  expired: 'Your card has expired.',
} as const;

/**
 * A card's expiry written MM/YY or MM/YYYY (spaces allowed around the slash; MMYY without it, as a phone's number pad
 * types it): its month and full year, or null.
 */
export function parseCardExpiry(text: string): { month: number; year: number } | null {
  const match = /^(?:(0?[1-9]|1[0-2])\s*\/\s*|(0[1-9]|1[0-2]))(\d{2}|\d{4})$/.exec(text.trim());
  if (!match) return null;
  const year = Number(match[3]);
  return { month: Number(match[1] ?? match[2]), year: year < 100 ? 2000 + year : year };
}

/** Whether a card has expired by `now`: it is good until the end of its expiry month (UTC). */
export function cardExpired(expiry: { month: number; year: number }, now: Date): boolean {
  const year = now.getUTCFullYear();
  return expiry.year < year || (expiry.year === year && expiry.month < now.getUTCMonth() + 1);
}

/**
 * POST /api/subscription/test-checkout/confirm, test payment mode only: pays a test checkout's first invoice with a
 * Stripe test card number (4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 0069 has
 * expired). `expiry` (MM/YY), when sent, is checked as Stripe does: one in the past is refused (402 expired_card).
 */
export const TestCheckoutConfirm = z.object({
  clientSecret: requiredText('clientSecret is required').max(200, 'clientSecret is too long'),
  cardNumber: requiredText('Card number is required').max(40, 'Card number is too long'),
  expiry: z.string().max(10, CardMessages.expiryInvalid).refine((text) => parseCardExpiry(text) !== null, CardMessages.expiryInvalid).optional(),
});
export type TestCheckoutConfirm = z.infer<typeof TestCheckoutConfirm>;

/** POST /api/cancel-subscription, 200 */
export const CancelSubscriptionResponse = Message;
export type CancelSubscriptionResponse = z.infer<typeof CancelSubscriptionResponse>;

/**
 * The subscription service's section of a user's data download (GET /internal/personal-data/subscription): the plan,
 * the payment state and the payment provider's references to the user, and their support requests (newest first). No
 * card data: the provider holds it.
 */
export const SubscriptionPersonalData = SubscriptionInfo.pick({ tier: true, status: true, currentPeriodEnd: true, cancelAtPeriodEnd: true }).extend({
  paymentCustomerId: z.string().nullable(),
  paymentSubscriptionId: z.string().nullable(),
  supportRequests: z.array(SupportRequest),
});
export type SubscriptionPersonalData = z.infer<typeof SubscriptionPersonalData>;
