/** /api/exchange-matches: accept, approve, call off, complete, 'I received', list; a request's match; the bank details. */
import type { FastifyInstance } from 'fastify';
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { Routes } from '@puente/contracts';
import { changed, conflict, forbidden, notFound, requireUser, serve } from '@puente/platform';
import { ExchangeMatch, LIVE_MATCH_STATUSES } from '../domain/exchange-match.ts';
import { ExchangeRequest } from '../domain/exchange-request.ts';
import { matchAccounts, mayShowBankDetails } from '../domain/match-accounts.ts';
import { checkPlanLimits } from '../domain/plan-limits.ts';
import { cancelTrade, completeTrade, confirmReceiptOf, confirmTrade, lockTrade, takeRequest } from '../domain/trade.ts';
import { mayAccept, REQUEST_NOT_OPEN } from '../domain/match-transitions.ts';
import { assertNotDeleted, hasBothAccounts } from '../domain/traders.ts';
import { assertNotDisputed, matchCancelledByDispute } from '../domain/disputes.ts';
import { assertMayTrade } from '../domain/sanctions.ts';
import { matchView, matchViews } from '../domain/views.ts';
import { lockPair } from '../domain/blocks.ts';
import { assertMayTake, requestReads } from '../domain/who-may-take.ts';
import { MATCH_NOT_FOUND, needsBothAccountsToAccept, type RouteDeps } from './deps.ts';

const routes = Routes.exchange;

const isParty = (m: ExchangeMatch, userId: number) => m.requesterId === userId || m.matcherId === userId;

/** A match the caller is a party of; anyone else gets 404 (a match is private to its two parties). */
async function partyMatch(em: EntityManager, id: number, userId: number): Promise<ExchangeMatch> {
  const match = await em.findOne(ExchangeMatch, { id });
  if (!match || !isParty(match, userId)) throw notFound(MATCH_NOT_FOUND);
  return match;
}

export function exchangeMatchRoutes({ ctx, now }: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    const requestSeenBy = requestReads(() => ctx.orm.em.fork());

    /**
     * Accept an open request. Most accepts of a sought-after request come once it is taken: one read, without a
     * transaction or a lock, refuses them (409), and the takers who come together share that read. The others queue
     * on the request's row lock, and each one after the first finds it matched; the unique index on a request's live
     * match is the last word should anything slip by. A block between the two is refused before anything else, by
     * the same read (domain/who-may-take.ts). The winner's answer is read in its transaction, so that it goes out
     * at the commit rather than after the reads of the crowd still arriving.
     */
    serve(app, routes.createMatch, async (request) => {
      const { userId } = requireUser(request);
      const id = request.body.exchangeRequestId;
      const seen = await requestSeenBy(id, userId);
      seen?.refuseBlock();
      mayAccept(seen, userId);
      const at = now();
      try {
        return await ctx.change(async (tx) => {
          const found = await tx.findOne(ExchangeRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
          // Those queued behind the first accept stop here, holding the row's lock no longer than this.
          mayAccept(found, userId);
          await lockPair(tx, found.userId, userId);
          await assertMayTake(tx, found, userId);
          await assertNotDeleted(tx, userId);
          await assertMayTrade(tx, userId);
          if (!await hasBothAccounts(tx, userId)) throw needsBothAccountsToAccept();
          await checkPlanLimits(tx, userId, { currency: found.fromCurrency, amount: found.amount }, at);
          const taken = await takeRequest(tx, found, userId, at);
          return { ...taken, value: await matchView(tx, taken.value) };
        });
      } catch (err) {
        if (err instanceof UniqueConstraintViolationException) throw conflict(REQUEST_NOT_OPEN);
        throw err;
      }
    });

    /** For a service whose projection of matches lags the events (rating, asked to rate a match just completed). */
    serve(app, routes.internalMatch, async (request) => {
      const match = await request.em.findOne(ExchangeMatch, { id: request.params.id });
      if (!match) throw notFound(MATCH_NOT_FOUND);
      return { id: match.id, exchangeRequestId: match.requestId, requesterId: match.requesterId, matcherId: match.matcherId, status: match.status };
    });

    serve(app, routes.matches, async (request, reply) => {
      const { userId } = requireUser(request);
      const { limit, offset } = request.query;
      const [matches, total] = await request.em.findAndCount(ExchangeMatch,
        { $or: [{ requesterId: userId }, { matcherId: userId }] }, { orderBy: { id: 'desc' }, limit, offset });
      reply.header('x-total-count', String(total));
      return matchViews(request.em, matches);
    });

    /**
     * The request's live match (or the match an admin cancelled with it, resolving its dispute: its parties see how
     * it ended), for its two parties; null for anyone else, and while it has none.
     */
    serve(app, routes.matchForRequest, async (request) => {
      const { userId } = requireUser(request);
      const { requestId } = request.params;
      const match = await request.em.findOne(ExchangeMatch, { requestId, status: { $in: [...LIVE_MATCH_STATUSES] } })
        ?? await matchCancelledByDispute(request.em, requestId);
      return match && isParty(match, userId) ? matchView(request.em, match) : null;
    });

    /** The requester approves a pending match: both parties may now see each other's bank details. */
    serve(app, routes.confirmMatch, async (request) => {
      const { userId } = requireUser(request);
      const match = await partyMatch(request.em, request.params.id, userId);
      if (match.requesterId !== userId) throw forbidden('Only the requester can approve this match');
      const at = now();
      const confirmed = await ctx.change(async (tx) => {
        const trade = await lockTrade(tx, match);
        await assertNotDisputed(tx, trade.match);
        return changed(trade.match, ...await confirmTrade(tx, trade.match, trade.request, userId, at));
      });
      return matchView(request.em, confirmed);
    });

    /** Either party, while pending: the matcher withdraws or the requester declines; the request reopens. */
    serve(app, routes.cancelMatch, async (request) => {
      const { userId } = requireUser(request);
      const match = await partyMatch(request.em, request.params.id, userId);
      const cancelled = await ctx.change(async (tx) => {
        const trade = await lockTrade(tx, match);
        await assertNotDisputed(tx, trade.match);
        const reason = userId === match.matcherId ? 'withdrawn' : 'declined';
        return changed(trade.match, ...await cancelTrade(tx, trade.match, trade.request, userId, reason, now()));
      });
      return matchView(request.em, cancelled);
    });

    /** Either party marks a confirmed match completed (domain/trade.ts), unless it is disputed. */
    serve(app, routes.completeMatch, async (request) => {
      const { userId } = requireUser(request);
      const match = await partyMatch(request.em, request.params.id, userId);
      const at = now();
      const completed = await ctx.change(async (tx) => {
        const trade = await lockTrade(tx, match);
        await assertNotDisputed(tx, trade.match);
        return changed(trade.match, ...await completeTrade(tx, trade.match, trade.request, userId, at));
      });
      return matchView(request.em, completed);
    });

    /**
     * A party's 'I received' (domain/receipt-transitions.ts): once on a confirmed match (again: the match unchanged),
     * or the yes of the party asked after the other completed it, within the window.
     */
    serve(app, routes.confirmReceipt, async (request) => {
      const { userId } = requireUser(request);
      const match = await partyMatch(request.em, request.params.id, userId);
      const received = await ctx.change((tx) => confirmReceiptOf(tx, match, userId, now()));
      return matchView(request.em, received);
    });

    /** Bank details, for the two parties of a match whose details may be shown (domain/match-accounts.ts). */
    serve(app, routes.matchAccounts, async (request) => {
      const { userId } = requireUser(request);
      const match = await partyMatch(request.em, request.params.id, userId);
      await mayShowBankDetails(request.em, match, now());
      const exchangeRequest = await request.em.findOneOrFail(ExchangeRequest, { id: match.requestId });
      return matchAccounts(ctx, { match, request: exchangeRequest, callerId: userId });
    });
  };
}
