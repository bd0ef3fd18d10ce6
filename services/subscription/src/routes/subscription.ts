/**
 * The caller's plan: read it, start (or resume) premium, cancel it at the period's end. Starting and cancelling
 * hold a per-user lock, so two clicks never start two subscriptions.
 */
import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Routes, SubscriptionPlans, TEST_MODE_NOTICE, type CreateSubscriptionResponse, type SubscriptionInfo, type SubscriptionTier } from '@puente/contracts';
import { changed, requireUser, serve } from '@puente/platform';
import { PLAN_LOCK, Subscription } from '../domain/subscription.ts';
import { cancelRenewal, mayCancel, mayResume, resumeRenewal, startCheckout } from '../domain/subscription-transitions.ts';
import { paymentsOf, type RouteDeps } from './deps.ts';

export { ALREADY_PREMIUM, NOTHING_TO_CANCEL } from '../domain/subscription-transitions.ts';

const routes = Routes.subscription;

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
      return ctx.change<CreateSubscriptionResponse>(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(?, ?)', [PLAN_LOCK, userId]);
        const row = await subscriptionRow(tx, userId);
        if (row.tier === 'premium') {
          // Premium set to end at the period's end renews again; any other premium plan is refused.
          mayResume(row);
          await payments.setCancelAtPeriodEnd(row.providerSubscriptionId, false);
          return changed({ clientSecret: null, subscriptionId: row.providerSubscriptionId }, ...resumeRenewal(row));
        }
        if (row.status === 'incomplete' && row.providerSubscriptionId) {
          const open = await payments.getSubscription(row.providerSubscriptionId, deps.now());
          if (open?.status === 'incomplete' && open.clientSecret) return changed({ clientSecret: open.clientSecret, subscriptionId: open.id });
        }
        row.customerId ??= await payments.createCustomer(userId);
        const started = await payments.startSubscription(row.customerId, userId);
        if (!started.clientSecret) throw new Error(`subscription ${started.id} started without a payment to confirm (${started.status})`);
        return changed({ clientSecret: started.clientSecret, subscriptionId: started.id }, ...startCheckout(row, started.id));
      });
    });

    serve(app, routes.cancel, async (request) => {
      const { userId } = requireUser(request);
      const payments = paymentsOf(deps);
      return ctx.change(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(?, ?)', [PLAN_LOCK, userId]);
        const row = await tx.findOne(Subscription, { userId });
        mayCancel(row);
        if (!row.cancelAtPeriodEnd) await payments.setCancelAtPeriodEnd(row.providerSubscriptionId, true);
        const events = cancelRenewal(row); // a second cancel changes nothing
        const until = row.currentPeriodEnd ? ` until ${day(row.currentPeriodEnd)}` : '';
        return changed({ message: `Your subscription is cancelled: you keep Premium${until}, then move to the free plan.` }, ...events);
      });
    });
  };
}
