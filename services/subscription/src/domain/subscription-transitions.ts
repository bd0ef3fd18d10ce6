/**
 * The moves of a user's plan, each checking its rule and returning the events it caused. none → incomplete (a
 * checkout started) → active (paid: premium until the period's end) → past_due (a renewal failed: still premium while
 * the provider retries) → active again once paid, or cancelled (ended: free again, and a new checkout may start).
 * Each tier change is announced (identity's subscriptionTier and the exchange's plan limits follow it); the other
 * moves are not. Callers hold the user's plan lock or the row's lock and write the events with ServiceContext.change.
 */
import { SubscriptionRefusal, type EventEnvelope } from '@puente/contracts';
import { conflict, makeEvent } from '@puente/platform';
import { ENDED_STATUSES, type ProviderSubscription } from './payments.ts';
import type { Subscription } from './subscription.ts';

export const ALREADY_PREMIUM = 'You already have a premium subscription';
export const NOTHING_TO_CANCEL = 'You have no premium subscription to cancel';

type Following = Subscription & { providerSubscriptionId: string };

const later = (a: Date | null | undefined, b: Date | null) => (a && (!b || a > b) ? a : b ?? a ?? null);

/** A new user's plan: free, no subscription started. */
export const freePlan = (userId: number) => ({ userId, tier: 'free', status: 'none', currentPeriodEnd: null }) as const;

/** A premium checkout the provider just started (its first payment awaited); refused while premium. */
export function startCheckout(row: Subscription, providerSubscriptionId: string): EventEnvelope[] {
  if (row.tier === 'premium') throw conflict(ALREADY_PREMIUM, SubscriptionRefusal.alreadyPremium);
  Object.assign(row, { providerSubscriptionId, status: 'incomplete', cancelAtPeriodEnd: false });
  return [];
}

/** Whether a premium plan may renew again: only one set to end at its period's end; throws the refusal. */
export function mayResume(row: Subscription): asserts row is Following {
  if (row.tier !== 'premium' || !row.cancelAtPeriodEnd || !row.providerSubscriptionId) throw conflict(ALREADY_PREMIUM, SubscriptionRefusal.alreadyPremium);
}

/** A premium plan set to end renews again (the provider told first); the tier stays, so nothing is announced. */
export function resumeRenewal(row: Subscription): EventEnvelope[] {
  mayResume(row);
  row.cancelAtPeriodEnd = false;
  return [];
}

/** Whether there is a premium subscription to cancel; throws the refusal. */
export function mayCancel(row: Subscription | null): asserts row is Following {
  if (!row || row.tier !== 'premium' || !row.providerSubscriptionId) throw conflict(NOTHING_TO_CANCEL);
}

/** Premium ends at the period's end (the provider told first); announced when it does end. */
export function cancelRenewal(row: Subscription | null): EventEnvelope[] {
  mayCancel(row);
  row.cancelAtPeriodEnd = true;
  return [];
}

/** Premium from now until `periodEnd` (announced when the user was free or the period moved on). */
export function paid(row: Subscription, periodEnd: Date | null): EventEnvelope[] {
  const end = later(row.currentPeriodEnd, periodEnd);
  const moved = row.tier !== 'premium' || end?.getTime() !== row.currentPeriodEnd?.getTime();
  Object.assign(row, { tier: 'premium', status: 'active', currentPeriodEnd: end });
  if (!moved || !end) return [];
  return [makeEvent('subscriptionActivated', row.userId, { userId: row.userId, tier: 'premium', currentPeriodEnd: end.toISOString() })];
}

/** A premium renewal failed: past_due, still premium while the provider retries (the user is told, once). */
export function paymentFailed(row: Subscription): EventEnvelope[] {
  if (row.tier !== 'premium' || row.status === 'past_due') return [];
  row.status = 'past_due';
  return [makeEvent('subscriptionPaymentFailed', row.userId, { userId: row.userId })];
}

/** Back to the free plan (announced when the user was premium). */
export function ended(row: Subscription): EventEnvelope[] {
  const wasPremium = row.tier === 'premium';
  Object.assign(row, { tier: 'free', status: 'cancelled', cancelAtPeriodEnd: false });
  return wasPremium ? [makeEvent('subscriptionCancelled', row.userId, { userId: row.userId, tier: 'free' })] : [];
}

/**
 * The provider's state of the row's subscription (a subscription.* event, or the reconciliation). Its past_due
 * announces nothing: the failed invoice's own event does (paymentFailed).
 */
export function followProvider(row: Subscription, s: Pick<ProviderSubscription, 'status' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'>): EventEnvelope[] {
  if (ENDED_STATUSES.includes(s.status)) return ended(row);
  if (s.status === 'incomplete') return []; // the first payment is still awaited
  row.cancelAtPeriodEnd = s.cancelAtPeriodEnd;
  if (s.status === 'past_due') {
    if (row.tier === 'premium') row.status = 'past_due';
    return [];
  }
  return s.status === 'active' || s.status === 'trialing' ? paid(row, s.currentPeriodEnd) : [];
}

/** A deleted user's plan: ended if one ever started, and the provider's references to them gone. */
export function forget(row: Subscription): EventEnvelope[] {
  const events = row.status === 'none' ? [] : ended(row);
  Object.assign(row, { customerId: null, providerSubscriptionId: null, currentPeriodEnd: null });
  return events;
}
