/** /api/ratings: rate the other party of a completed match once; a match's ratings; the ratings a user received. */
import type { FastifyInstance } from 'fastify';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { fillPath, InternalMatch, Routes } from '@puente/contracts';
import { conflict, notFound, requireUser, serve, type ServiceContext } from '@puente/platform';
import { Rating } from '../domain/rating.ts';
import { Trade, advanceTrade, isParty } from '../domain/trade.ts';
import { ALREADY_RATED, submitRating } from '../domain/submit-rating.ts';
import { ratingView, ratingViews } from '../domain/views.ts';

const routes = Routes.rating;
export const MATCH_NOT_FOUND = 'Exchange match not found';

/** A match the caller is a party of; anyone else gets 404 (a match is private to its two parties). */
async function partyTrade(em: EntityManager, matchId: number, userId: number): Promise<Trade> {
  const trade = await em.findOne(Trade, { matchId });
  if (!trade || !isParty(trade, userId)) throw notFound(MATCH_NOT_FOUND);
  return trade;
}

/**
 * The rating service learns that a match was completed from the exchange service's event, and a party may rate
 * before it arrives (an API client rating at once; the broker slow). A match not known here as completed is
 * asked of the exchange service, and recorded as it answers (outside any transaction: one database session in the
 * embedded mode).
 */
async function catchUp(ctx: ServiceContext, em: EntityManager, matchId: number): Promise<void> {
  const known = await em.findOne(Trade, { matchId });
  if (known?.status === 'completed') return;
  const res = await ctx.callService('exchange', fillPath(Routes.exchange.internalMatch.path, { id: matchId }));
  if (res.status === 404) return;
  if (!res.ok) throw new Error(`the exchange service answered ${res.status} for match ${matchId}`);
  const match = InternalMatch.parse(await res.json());
  await advanceTrade(em, { matchId: match.id, requestId: match.exchangeRequestId, requesterId: match.requesterId, matcherId: match.matcherId }, match.status);
}

export function ratingRoutes(ctx: ServiceContext) {
  return async (app: FastifyInstance): Promise<void> => {
    /** Rate the other party of a completed match, once (domain/submit-rating.ts). */
    serve(app, routes.create, async (request) => {
      const { userId } = requireUser(request);
      const { exchangeMatchId, ...rating } = request.body;
      await catchUp(ctx, request.em, exchangeMatchId);
      try {
        const created = await ctx.change(async (tx) => submitRating(tx, await partyTrade(tx, exchangeMatchId, userId), userId, rating));
        return await ratingView(request.em, created);
      } catch (err) {
        // Two ratings by one rater raced past the check: the unique (match, rater) index lets one in.
        if (err instanceof UniqueConstraintViolationException) throw conflict(ALREADY_RATED);
        throw err;
      }
    });

    /** The ratings given in a match (none, one or both), oldest first; for its two parties only. */
    serve(app, routes.forMatch, async (request) => {
      const { userId } = requireUser(request);
      const trade = await partyTrade(request.em, request.params.exchangeMatchId, userId);
      return ratingViews(request.em, await request.em.find(Rating, { matchId: trade.matchId }, { orderBy: { id: 'asc' } }));
    });

    /** The ratings a user received, newest first: public to any signed-in user (trust is built on them). */
    serve(app, routes.forUser, async (request, reply) => {
      requireUser(request);
      const { limit, offset } = request.query;
      const [ratings, total] = await request.em.findAndCount(Rating, { toUserId: request.params.userId }, { orderBy: { id: 'desc' }, limit, offset });
      reply.header('x-total-count', String(total));
      return ratingViews(request.em, ratings);
    });
  };
}
