/**
 * The provider's word on a subscription (a webhook event), applied once: each verified Stripe event moves the
 * subscription it is about by its transitions (subscription-transitions.ts). An event older than the newest one
 * applied changes nothing, so late deliveries never move a subscription backwards.
 */
import type Stripe from 'stripe';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@puente/contracts';
import { changed, qualifiedTable, type Changed } from '@puente/platform';
import { invoicePeriodEnd, invoiceSubscriptionId, periodEndOf } from './payments.ts';
import { ProviderEvent, Subscription } from './subscription.ts';
import { ended, followProvider, paid, paymentFailed } from './subscription-transitions.ts';

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

/** The moves one event makes to the subscription it is about, and their events. */
function apply(row: Subscription, event: Stripe.Event): EventEnvelope[] {
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      return paid(row, invoicePeriodEnd(event.data.object));
    case 'invoice.payment_failed':
      return paymentFailed(row);
    case 'customer.subscription.updated':
      return followProvider(row, { status: event.data.object.status, currentPeriodEnd: periodEndOf(event.data.object), cancelAtPeriodEnd: event.data.object.cancel_at_period_end });
    case 'customer.subscription.deleted':
      return ended(row);
    default:
      return [];
  }
}

/** Applies one verified Stripe event once (by its id), in the caller's transaction; returns the events it caused. */
export async function applyProviderEvent(tx: EntityManager, event: Stripe.Event): Promise<Changed<Applied>> {
  const res = await tx.execute<{ affectedRows?: number }>(
    `insert into ${qualifiedTable(tx, ProviderEvent)} (id, type, received_at) values (?, ?, now()) on conflict do nothing`,
    [event.id, event.type], 'run');
  if ((res.affectedRows ?? 0) === 0) return changed('duplicate');
  const subscriptionId = subscriptionOf(event);
  if (!subscriptionId) return changed('ignored');
  const row = await tx.findOne(Subscription, { providerSubscriptionId: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row) return changed('ignored'); // a subscription this service did not start (or replaced)
  if (event.created < row.lastEventAt) return changed('stale');
  row.lastEventAt = event.created;
  const events = apply(row, event);
  await tx.flush();
  return changed('applied', ...events);
}
