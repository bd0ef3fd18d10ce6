import { defineEntity, p } from '@mikro-orm/postgresql';

/** A user's plan. Every registered user has one, free until they pay for premium. */
export const SubscriptionSchema = defineEntity({
  name: 'Subscription',
  tableName: 'subscription',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().unique(),
    tier: p.enum(['free', 'premium']).default('free'),
    status: p.enum(['active', 'cancelled', 'past_due']).default('active'),
    currentPeriodEnd: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class Subscription extends SubscriptionSchema.class {}
SubscriptionSchema.setClass(Subscription);
