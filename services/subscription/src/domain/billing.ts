/**
 * How a subscription moves, from the provider's word (a webhook event, or the provider's state read by the daily
 * reconciliation): paid → premium and active until the period's end; a failed renewal → past_due, still premium
 * while Stripe retries (the user is told); cancelled, unpaid or deleted → free. Each tier change publishes an event
 * (identity's subscriptionTier and the exchange's plan limits follow it). An event older than the newest one applied
 * changes nothing, so late deliveries never move a subscription backwards.
 */
import type Stripe from 'stripe';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { addToOutbox, makeEvent, qualifiedTable } from '@puente/platform';
import { ENDED_STATUSES, invoicePeriodEnd, invoiceSubscriptionId, periodEndOf, type ProviderSubscription } from './payments.ts';
import { ProviderEvent, Subscription } from './subscription.ts';

const later = (a: Date | null | undefined, b: Date | null) => (a && (!b || a > b) ? a : b ?? a ?? null);

/** Premium from now until `periodEnd` (announced when the user was free or the period moved on). */
function paid(tx: EntityManager, row: Subscription, periodEnd: Date | null): void {
  const end = later(row.currentPeriodEnd, periodEnd);
  const changed = row.tier !== 'premium' || end?.getTime() !== row.currentPeriodEnd?.getTime();
  Object.assign(row, { tier: 'premium', status: 'active', currentPeriodEnd: end });
  if (changed && end) {
    addToOutbox(tx, makeEvent('subscriptionActivated', row.userId, { userId: row.userId, tier: 'premium', currentPeriodEnd: end.toISOString() }));
  }
}

/** Back to the free plan (announced when the user was premium). */
export function ended(tx: EntityManager, row: Subscription): void {
  const wasPremium = row.tier === 'premium';
  Object.assign(row, { tier: 'free', status: 'cancelled', cancelAtPeriodEnd: false });
  if (wasPremium) addToOutbox(tx, makeEvent('subscriptionCancelled', row.userId, { userId: row.userId, tier: 'free' }));
}

/** The provider's state of the row's subscription (a subscription.* event, or the reconciliation). */
export function applyState(tx: EntityManager, row: Subscription, s: Pick<ProviderSubscription, 'status' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'>): void {
  if (ENDED_STATUSES.includes(s.status)) return ended(tx, row);
  if (s.status === 'incomplete') return; // the first payment is still awaited
  row.cancelAtPeriodEnd = s.cancelAtPeriodEnd;
  if (s.status === 'past_due') {
    if (row.tier === 'premium') row.status = 'past_due';
    return;
  }
  if (s.status === 'active' || s.status === 'trialing') paid(tx, row, s.currentPeriodEnd);
}

export type Applied = 'applied' | 'duplicate' | 'stale' | 'ignored';

/** The subscription a Stripe event is about, if it is one this service acts on. */
function subscriptionOf(event: Stripe.Event): string | null {
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
    case 'invoice.payment_failed':
      return invoiceSubscriptionId(event.data.object);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return event.data.object.id;
    default:
      return null;
  }
}

/** Applies one verified Stripe event once (by its id), in the caller's transaction. */
export async function applyProviderEvent(tx: EntityManager, event: Stripe.Event): Promise<Applied> {
  const res = await tx.execute<{ affectedRows?: number }>(
    `insert into ${qualifiedTable(tx, ProviderEvent)} (id, type, received_at) values (?, ?, now()) on conflict do nothing`,
    [event.id, event.type], 'run');
  if ((res.affectedRows ?? 0) === 0) return 'duplicate';
  const subscriptionId = subscriptionOf(event);
  if (!subscriptionId) return 'ignored';
  const row = await tx.findOne(Subscription, { providerSubscriptionId: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row) return 'ignored'; // a subscription this service did not start (or replaced)
  if (event.created < row.lastEventAt) return 'stale';
  row.lastEventAt = event.created;
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      paid(tx, row, invoicePeriodEnd(event.data.object));
      break;
    case 'invoice.payment_failed':
      if (row.tier === 'premium' && row.status !== 'past_due') {
        row.status = 'past_due';
        addToOutbox(tx, makeEvent('subscriptionPaymentFailed', row.userId, { userId: row.userId }));
      }
      break;
    case 'customer.subscription.updated':
      applyState(tx, row, { status: event.data.object.status, currentPeriodEnd: periodEndOf(event.data.object), cancelAtPeriodEnd: event.data.object.cancel_at_period_end });
      break;
    case 'customer.subscription.deleted':
      ended(tx, row);
      break;
  }
  await tx.flush();
  return 'applied';
}
