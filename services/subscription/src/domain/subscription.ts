/**
 * A user's plan: free until a premium subscription's first payment, premium while it is paid (and while Stripe
 * retries a failed renewal: past_due), free again once it is cancelled or unpaid. Every registered user has a row.
 * `lastEventAt` is the creation time (unix seconds) of the newest provider event applied: an older event arriving
 * late never moves the subscription backwards.
 */
import { defineEntity, p } from '@mikro-orm/postgresql';
import { SubscriptionStatus, SubscriptionTier } from '@puente/contracts';

export const SubscriptionSchema = defineEntity({
  name: 'Subscription',
  tableName: 'subscription',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().unique(),
    tier: p.enum(SubscriptionTier.options).default('free'),
    status: p.enum(SubscriptionStatus.options).default('none'),
    currentPeriodEnd: p.datetime().nullable(),
    cancelAtPeriodEnd: p.boolean().default(false),
    /** The provider's customer, created once per user. */
    customerId: p.text().nullable(),
    /** The provider's subscription this row follows (the newest one started). */
    providerSubscriptionId: p.text().nullable().unique(),
    lastEventAt: p.bigint('number').default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class Subscription extends SubscriptionSchema.class {}
SubscriptionSchema.setClass(Subscription);

/** pg_advisory_xact_lock(class, user): one plan change at a time per user ('SUBS'). */
export const PLAN_LOCK = 0x53554253;

/** Provider events already applied (Stripe may deliver one several times). */
export const ProviderEventSchema = defineEntity({
  name: 'ProviderEvent',
  tableName: 'provider_event',
  properties: {
    id: p.text().primary(),
    type: p.text(),
    receivedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class ProviderEvent extends ProviderEventSchema.class {}
ProviderEventSchema.setClass(ProviderEvent);
