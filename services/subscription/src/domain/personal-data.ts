/**
 * What the subscription service holds of a user, for their data download (their plan, payment state and the payment
 * provider's references to them, their support requests; never card data, which only the provider holds), and their
 * account's deletion: a premium plan ends at once (announced, as any end is), the references go, the provider is told
 * to forget the customer by a job (jobs/erase-payment-customer.ts) that retries while it cannot be reached, and their
 * support requests are deleted.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope, SubscriptionPersonalData } from '@puente/contracts';
import type { JobQueue } from '@puente/platform';
import { PLAN_LOCK, Subscription } from './subscription.ts';
import { forget } from './subscription-transitions.ts';
import { SupportRequest, supportView } from './support.ts';
import { ERASE_PAYMENT_CUSTOMER } from '../jobs/erase-payment-customer.ts';

export async function personalDataOf(em: EntityManager, userId: number): Promise<SubscriptionPersonalData> {
  const row = await em.findOne(Subscription, { userId });
  return {
    tier: row?.tier ?? 'free', status: row?.status ?? 'none', currentPeriodEnd: row?.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false, paymentCustomerId: row?.customerId ?? null, paymentSubscriptionId: row?.providerSubscriptionId ?? null,
    supportRequests: (await em.find(SupportRequest, { userId }, { orderBy: { createdAt: 'desc', id: 'desc' } })).map(supportView),
  };
}

/** In the caller's transaction, under the user's plan lock (no checkout starts meanwhile); returns the plan's end, if announced. */
export async function eraseUser(tx: EntityManager, jobs: JobQueue, userId: number): Promise<EventEnvelope[]> {
  await tx.execute('select pg_advisory_xact_lock(?, ?)', [PLAN_LOCK, userId]);
  // Their support requests go too: what they wrote about their account is theirs, and nobody is left to answer.
  await tx.nativeDelete(SupportRequest, { userId });
  const row = await tx.findOne(Subscription, { userId });
  if (!row) return [];
  if (row.customerId) await jobs.enqueue(ERASE_PAYMENT_CUSTOMER, { customerId: row.customerId }, { jobId: `${ERASE_PAYMENT_CUSTOMER}-${row.customerId}` });
  const events = forget(row);
  await tx.flush();
  return events;
}
