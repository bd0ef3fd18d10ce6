/** GET /api/transaction-history: the caller's completed exchanges, from their own side. */
import type { FastifyInstance } from 'fastify';
import { Routes, type User } from '@puente/contracts';
import { callRoute, requireUser, serve } from '@puente/platform';
import { ExchangeMatch } from '../domain/exchange-match.ts';
import { historyOf, otherParty } from '../domain/history.ts';
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
      const { limit, offset } = request.query;
      const [matches, total] = await request.em.findAndCount(ExchangeMatch,
        { status: 'completed', $or: [{ requesterId: userId }, { matcherId: userId }] },
        { orderBy: { completedAt: 'desc', id: 'desc' }, limit, offset });
      reply.header('x-total-count', String(total));
      if (matches.length === 0) return [];
      let users: Map<number, User> | null = null;
      try {
        const ids = [...new Set(matches.map((m) => otherParty(m, userId)))];
        const found = await callRoute(ctx, 'identity', Routes.identity.internalUsers, { ids: ids.join(',') });
        users = new Map(found.map((u) => [u.id, u]));
      } catch (err) {
        request.log.warn({ err }, 'identity did not answer: history without the other parties\' names');
      }
      return historyOf(request.em, userId, matches, users);
    });
  };
}
