/**
 * Subscription: each user's plan (free or premium) and its limits. Owns schema `subscription`. Its routes are
 * declared (packages/contracts/src/api/engagement-routes.ts, planned) and served once the subscription issue builds
 * them; today it keeps every registered user's plan.
 */
import { fileURLToPath } from 'node:url';
import { defineService } from '@puente/platform';
import { SubscriptionSchema } from './domain/subscription.ts';
import { consumers } from './events/consumers.ts';

export function subscriptionService() {
  return defineService({
    name: 'subscription',
    entities: [SubscriptionSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    // None served yet (declared planned).
    routes() {},
  });
}
