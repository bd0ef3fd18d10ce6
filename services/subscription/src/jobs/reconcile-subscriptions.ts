/**
 * Daily, in case a webhook was missed: every premium subscription whose period has ended is checked with the
 * provider (Stripe, or in test mode this service's own records) and follows what it says — renewed (a later period
 * end), or ended (back to free). Batches in user order; each row changes under its lock.
 */
import { z } from 'zod';
import { LockMode } from '@mikro-orm/postgresql';
import { changed, defineJob, type ServiceContext } from '@puente/platform';
import type { PaymentProvider } from '../domain/payments.ts';
import { Subscription } from '../domain/subscription.ts';
import { followProvider } from '../domain/subscription-transitions.ts';

export const RECONCILE_SUBSCRIPTIONS = 'reconcile-subscriptions';
export const RECONCILE_EVERY_MS = 24 * 3_600_000;
const BATCH = 100;

export async function reconcileSubscriptions(ctx: Pick<ServiceContext, 'orm' | 'change'>, payments: PaymentProvider, now: Date): Promise<number> {
  let moved = 0;
  let afterUserId = 0;
  for (;;) {
    const due = await ctx.orm.em.fork().find(Subscription,
      { tier: 'premium', currentPeriodEnd: { $lte: now }, userId: { $gt: afterUserId } },
      { orderBy: { userId: 'asc' }, limit: BATCH });
    for (const { userId, providerSubscriptionId } of due) {
      afterUserId = userId;
      if (!providerSubscriptionId) continue;
      const state = await payments.getSubscription(providerSubscriptionId, now);
      await ctx.change(async (tx) => {
        const row = await tx.findOneOrFail(Subscription, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (row.providerSubscriptionId !== providerSubscriptionId) return changed(undefined); // replaced meanwhile
        const before = `${row.tier}/${row.currentPeriodEnd?.toISOString()}`;
        const events = followProvider(row, state ?? { status: 'canceled', currentPeriodEnd: null, cancelAtPeriodEnd: false });
        if (`${row.tier}/${row.currentPeriodEnd?.toISOString()}` !== before) moved += 1;
        return changed(undefined, ...events);
      });
    }
    if (due.length < BATCH) return moved;
  }
}

export function reconcileSubscriptionsJob(payments: () => PaymentProvider | null, now: () => Date) {
  return defineJob({
    name: RECONCILE_SUBSCRIPTIONS,
    schema: z.object({}),
    attempts: 3,
    backoffMs: 60_000,
    async handle(_data, ctx) {
      const provider = payments();
      if (!provider) return;
      const changed = await reconcileSubscriptions(ctx, provider, now());
      if (changed > 0) ctx.logger.info({ changed }, 'subscriptions reconciled with the payment provider');
    },
  });
}
