/**
 * How the test payment mode's own subscriptions move, as Stripe's would: incomplete → active once the first payment
 * succeeds; an active one whose period ended renews for another period, or is canceled if it was to end then.
 * Nothing is announced here: the test provider renders its moves as Stripe-shaped webhook events (test-payments.ts).
 */
import type Stripe from 'stripe';
import { conflict } from '@puente/platform';

/** What these moves read and change of a test subscription (test-payments.ts, which imports this module). */
export interface TestSubscriptionState {
  status: Stripe.Subscription.Status;
  currentPeriodEnd?: Date | null;
  cancelAtPeriodEnd: boolean;
}

export const ALREADY_PAID = 'This checkout is already paid';

/** A subscription just started: its first payment awaited, no period yet. */
export const started = () => ({ status: 'incomplete', currentPeriodEnd: null, cancelAtPeriodEnd: false }) as const;

/** Whether the checkout still awaits its first payment; throws the refusal. */
export function mayPay(s: TestSubscriptionState): void {
  if (s.status !== 'incomplete') throw conflict(ALREADY_PAID);
}

/** The first payment succeeded: active until `periodEnd`. */
export function firstPaymentSucceeded(s: TestSubscriptionState, periodEnd: Date): void {
  mayPay(s);
  s.status = 'active';
  s.currentPeriodEnd = periodEnd;
}

/** The subscription as of `now`: a paid period that ended renews (by whole periods), unless it was to cancel at its end. Whether it moved. */
export function catchUpTo(s: TestSubscriptionState, now: Date, periodMs: number): boolean {
  if (s.status !== 'active' || !s.currentPeriodEnd || s.currentPeriodEnd > now) return false;
  if (s.cancelAtPeriodEnd) s.status = 'canceled';
  else while (s.currentPeriodEnd <= now) s.currentPeriodEnd = new Date(s.currentPeriodEnd.getTime() + periodMs);
  return true;
}
