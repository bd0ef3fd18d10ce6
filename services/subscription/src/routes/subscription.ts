import type { FastifyInstance } from 'fastify';
import { requireUser } from '@puente/platform';
import { Subscription } from '../domain/subscription.ts';

export async function subscriptionRoutes(app: FastifyInstance): Promise<void> {
  /** GET /api/subscription/info: the caller's plan (free when none is recorded yet). */
  app.get('/subscription/info', async (request) => {
    const { userId } = requireUser(request);
    const sub = await request.em.findOne(Subscription, { userId });
    return {
      tier: sub?.tier ?? 'free',
      status: sub?.status ?? 'active',
      currentPeriodEnd: sub?.currentPeriodEnd?.toISOString() ?? null,
    };
  });
}
