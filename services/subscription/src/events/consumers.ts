/** Every event the subscription service consumes, in one list. */
import { consume } from '@puente/platform';
import { Subscription } from '../domain/subscription.ts';

export const consumers = [
  /** A new user starts on the free plan. */
  consume('userRegistered', async ({ userId }, { em }) => {
    if (await em.count(Subscription, { userId }) > 0) return;
    em.create(Subscription, { userId, tier: 'free', status: 'none', currentPeriodEnd: null });
    await em.flush();
  }),
];
