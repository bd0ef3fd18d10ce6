/** Every event the subscription service consumes, in one list. */
import { consume } from '@puente/platform';
import { Subscription } from '../domain/subscription.ts';
import { freePlan } from '../domain/subscription-transitions.ts';
import { eraseUser } from '../domain/personal-data.ts';

export const consumers = [
  /** A new user starts on the free plan. */
  consume('userRegistered', async ({ userId }, { em }) => {
    if (await em.count(Subscription, { userId }) > 0) return;
    em.create(Subscription, freePlan(userId));
    await em.flush();
  }),
  /** A deleted account: premium ends now, and the payment provider forgets the customer. */
  consume('userDeleted', async ({ userId }, { em, jobs }) => eraseUser(em, jobs, userId)),
];
