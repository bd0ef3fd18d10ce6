/** GET /api/transaction-history: the caller's completed exchanges, from their own side. */
import type { FastifyInstance } from 'fastify';
import { convert, moneyNumber, Routes, type TransactionHistoryItem, type User } from '@puente/contracts';
import { callRoute, requireUser, serve } from '@puente/platform';
import { ExchangeMatch } from '../domain/exchange-match.ts';
import { ExchangeRequest } from '../domain/exchange-request.ts';
import type { RouteDeps } from './deps.ts';

export function historyRoutes({ ctx }: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    /**
     * What this user sent and received: the requester sent the request's amount and received its conversion; the
     * matcher the other way round. The other party's email comes from identity at the moment of the call; when
     * identity cannot answer, the page shows 'User information unavailable' (otherUser null) rather than failing.
     */
    serve(app, Routes.exchange.history, async (request, reply) => {
      const { userId } = requireUser(request);
      const { limit, offset } = request.query;
      const [matches, total] = await request.em.findAndCount(ExchangeMatch,
        { status: 'completed', $or: [{ requesterId: userId }, { matcherId: userId }] },
        { orderBy: { completedAt: 'desc', id: 'desc' }, limit, offset });
      reply.header('x-total-count', String(total));
      if (matches.length === 0) return [];
      const requests = new Map((await request.em.find(ExchangeRequest, { id: { $in: matches.map((m) => m.requestId) } })).map((r) => [r.id, r]));
      const others = matches.map((m) => (m.requesterId === userId ? m.matcherId : m.requesterId));
      let users: Map<number, User> | null = null;
      try {
        const found = await callRoute(ctx, 'identity', Routes.identity.internalUsers, { ids: [...new Set(others)].join(',') });
        users = new Map(found.map((u) => [u.id, u]));
      } catch (err) {
        request.log.warn({ err }, 'identity did not answer: history without the other parties\' names');
      }
      return matches.map((m, i): TransactionHistoryItem => {
        const r = requests.get(m.requestId)!;
        const isRequester = m.requesterId === userId;
        const converted = convert(r.fromCurrency, r.amount, r.exchangeRate);
        const other = users?.get(others[i]!);
        return {
          id: m.id,
          exchangeRequestId: r.id,
          exchangeMatchId: m.id,
          fromCurrency: isRequester ? r.fromCurrency : r.toCurrency,
          toCurrency: isRequester ? r.toCurrency : r.fromCurrency,
          fromAmount: moneyNumber(isRequester ? r.amount : converted),
          toAmount: moneyNumber(isRequester ? converted : r.amount),
          exchangeRate: Number(r.exchangeRate),
          status: r.status,
          completedAt: m.completedAt!.toISOString(),
          userRole: isRequester ? 'requester' : 'matcher',
          otherUser: other ? { firstName: other.firstName, lastName: other.lastName, email: other.email } : null,
        };
      });
    });
  };
}
