/** /api/ratings: rate the other party of a completed match once; a match's ratings; the ratings a user received. */
import type { FastifyInstance } from 'fastify';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { fillPath, InternalMatch, Routes } from '@puente/contracts';
import { addToOutbox, conflict, forbidden, makeEvent, notFound, qualifiedTable, requireUser, serve, type ServiceContext } from '@puente/platform';
import { Rating } from '../domain/rating.ts';
import { Trade, advanceTrade, isParty, otherParty } from '../domain/trade.ts';
import { ratingView, ratingViews } from '../domain/views.ts';

const routes = Routes.rating;
export const MATCH_NOT_FOUND = 'Exchange match not found';
export const NOT_THE_OTHER_PARTY = 'You can only rate the other party of this exchange';
export const NOT_COMPLETED = 'You can rate the other party once the exchange is completed';
/** The spec's word (section 5): a rater's second rating of one match. */
export const ALREADY_RATED = 'Already Rated';

/** The advisory-lock namespace of "ratings of one user" (first key; the user id is the second). */
const RATED_USER_LOCK = 0x52415445; // 'RATE'

/** A match the caller is a party of; anyone else gets 404 (a match is private to its two parties). */
async function partyTrade(em: EntityManager, matchId: number, userId: number): Promise<Trade> {
  const trade = await em.findOne(Trade, { matchId });
  if (!trade || !isParty(trade, userId)) throw notFound(MATCH_NOT_FOUND);
  return trade;
}

/** The rated user's count and exact average over all their ratings (numeric, rounded half-up to 4 decimals). */
async function standing(tx: EntityManager, toUserId: number): Promise<{ count: number; average: string }> {
  const [row] = await tx.execute<{ count: number; average: string }[]>(
    `select count(*)::int as count, round(avg(rating), 4)::text as average from ${qualifiedTable(tx, Rating)} where to_user_id = ?`,
    [toUserId],
  );
  return { count: row!.count, average: row!.average };
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
    /**
     * Rate the other party of a completed match. The advisory lock on the rated user queues concurrent ratings of one
     * user, so each counts the ones committed before it (no lost update in the published count and average); the
     * unique (match, rater) index is the last word on a rater's second rating.
     */
    serve(app, routes.create, async (request) => {
      const { userId } = requireUser(request);
      const { exchangeMatchId, toUserId, rating, comment } = request.body;
      await catchUp(ctx, request.em, exchangeMatchId);
      try {
        const created = await ctx.transaction(async (tx) => {
          const trade = await partyTrade(tx, exchangeMatchId, userId);
          if (toUserId !== otherParty(trade, userId)) throw forbidden(NOT_THE_OTHER_PARTY);
          if (trade.status !== 'completed') throw conflict(NOT_COMPLETED);
          await tx.execute('select pg_advisory_xact_lock(?, ?)', [RATED_USER_LOCK, toUserId]);
          if (await tx.count(Rating, { matchId: exchangeMatchId, fromUserId: userId }) > 0) throw conflict(ALREADY_RATED);
          const row = tx.create(Rating, { matchId: exchangeMatchId, fromUserId: userId, toUserId, rating, comment: comment ?? null });
          await tx.flush();
          const { count, average } = await standing(tx, toUserId);
          addToOutbox(tx, makeEvent('ratingSubmitted', row.id, {
            ratingId: row.id, matchId: exchangeMatchId, ...(trade.requestId === null ? {} : { requestId: trade.requestId }), fromUserId: userId, toUserId, rating, toUserAverage: average, toUserCount: count,
          }));
          return row;
        });
        return await ratingView(request.em, created);
      } catch (err) {
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
