/** Subscription: each user's plan (free or premium) and its limits. Owns schema `subscription`. */
import { fileURLToPath } from 'node:url';
import { defineService } from '@puente/platform';
import { SubscriptionSchema } from './domain/subscription.ts';
import { subscriptionRoutes } from './routes/subscription.ts';
import { consumers } from './events/consumers.ts';

export function subscriptionService() {
  return defineService({
    name: 'subscription',
    entities: [SubscriptionSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    async routes(app) {
      await app.register(subscriptionRoutes);
    },
  });
}
