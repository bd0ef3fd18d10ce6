/**
 * The caller's plan: read it, start (or resume) premium, cancel it at the period's end. Starting and cancelling
 * hold a per-user lock, so two clicks never start two subscriptions.
 */
import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Routes, SubscriptionPlans, TEST_MODE_NOTICE, type SubscriptionInfo, type SubscriptionTier } from '@puente/contracts';
import { conflict, requireUser, serve } from '@puente/platform';
import { PLAN_LOCK, Subscription } from '../domain/subscription.ts';
import { paymentsOf, type RouteDeps } from './deps.ts';

const routes = Routes.subscription;
export const ALREADY_PREMIUM = 'You already have a premium subscription';
export const NOTHING_TO_CANCEL = 'You have no premium subscription to cancel';

/** The user's row, made on the free plan when the registration event has not arrived yet. */
async function subscriptionRow(em: EntityManager, userId: number): Promise<Subscription> {
  await em.upsert(Subscription, { userId }, { onConflictAction: 'ignore' });
  return em.findOneOrFail(Subscription, { userId });
}

const day = (d: Date) => d.toISOString().slice(0, 10);

export function subscriptionRoutes(deps: RouteDeps) {
  const { ctx } = deps;
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, routes.info, async (request): Promise<SubscriptionInfo> => {
      const { userId } = requireUser(request);
      const row = await request.em.findOne(Subscription, { userId });
      const tier: SubscriptionTier = row?.tier === 'premium' ? 'premium' : 'free';
      return {
        tier, status: row?.status ?? 'none', currentPeriodEnd: row?.currentPeriodEnd?.toISOString() ?? null,
        cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false, plan: SubscriptionPlans[tier],
        payments: deps.mode, paymentNotice: deps.mode === 'test' ? TEST_MODE_NOTICE : null, publishableKey: deps.payments?.publishableKey ?? null,
      };
    });

    serve(app, routes.create, async (request) => {
      const { userId } = requireUser(request);
      const payments = paymentsOf(deps);
      return ctx.transaction(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(?, ?)', [PLAN_LOCK, userId]);
        const row = await subscriptionRow(tx, userId);
        if (row.tier === 'premium') {
          if (!row.cancelAtPeriodEnd || !row.providerSubscriptionId) throw conflict(ALREADY_PREMIUM);
          await payments.setCancelAtPeriodEnd(row.providerSubscriptionId, false);
          row.cancelAtPeriodEnd = false;
          return { clientSecret: null, subscriptionId: row.providerSubscriptionId };
        }
        if (row.status === 'incomplete' && row.providerSubscriptionId) {
          const open = await payments.getSubscription(row.providerSubscriptionId, deps.now());
          if (open?.status === 'incomplete' && open.clientSecret) return { clientSecret: open.clientSecret, subscriptionId: open.id };
        }
        row.customerId ??= await payments.createCustomer(userId);
        const started = await payments.startSubscription(row.customerId, userId);
        if (!started.clientSecret) throw new Error(`subscription ${started.id} started without a payment to confirm (${started.status})`);
        Object.assign(row, { providerSubscriptionId: started.id, status: 'incomplete', cancelAtPeriodEnd: false });
        return { clientSecret: started.clientSecret, subscriptionId: started.id };
      });
    });

    serve(app, routes.cancel, async (request) => {
      const { userId } = requireUser(request);
      const payments = paymentsOf(deps);
      return ctx.transaction(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(?, ?)', [PLAN_LOCK, userId]);
        const row = await tx.findOne(Subscription, { userId });
        if (!row || row.tier !== 'premium' || !row.providerSubscriptionId) throw conflict(NOTHING_TO_CANCEL);
        if (!row.cancelAtPeriodEnd) {
          await payments.setCancelAtPeriodEnd(row.providerSubscriptionId, true);
          row.cancelAtPeriodEnd = true;
        }
        const until = row.currentPeriodEnd ? ` until ${day(row.currentPeriodEnd)}` : '';
        return { message: `Your subscription is cancelled: you keep Premium${until}, then move to the free plan.` };
      });
    });
  };
}
