/** GET /api/transaction-history: the caller's completed exchanges and the requests they marked done, from their own side. */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { callRoute, requireUser, serve } from '@puente/platform';
import { historyPage } from '../domain/history.ts';
import type { RouteDeps } from './deps.ts';

export function historyRoutes({ ctx }: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    /**
     * The other party's names and email come from identity at the moment of the call (a deleted user's are
     * identity's placeholders); when identity cannot answer, the page shows 'User information unavailable'
     * (otherUser null) rather than failing.
     */
    serve(app, Routes.exchange.history, async (request, reply) => {
      const { userId } = requireUser(request);
      const { items, total } = await historyPage(request.em, userId, request.query, async (ids) => {
        try {
          const found = await callRoute(ctx, 'identity', Routes.identity.internalUsers, { ids: ids.join(',') });
          return new Map(found.map((u) => [u.id, u]));
        } catch (err) {
          request.log.warn({ err }, 'identity did not answer: history without the other parties\' names');
          return null;
        }
      });
      reply.header('x-total-count', String(total));
      return items;
    });
  };
}
