/** /api/exchange-requests: post, list, read, cancel, mark done, notify; and the caller's plan limits. */
import type { FastifyInstance } from 'fastify';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { decimal, moneyString, POLL_AUDIENCE_HEADER, RATE_BAND_PERCENT, rateBand, Routes, within } from '@puente/contracts';
import { answeredNotModified, AppError, changed, fieldInvalid, forbidden, notFound, qualifiedTable, requireUser, serve } from '@puente/platform';
import { ExchangeMatch } from '../domain/exchange-match.ts';
import { ExchangeRequest } from '../domain/exchange-request.ts';
import { newestRate } from '../domain/exchange-rate.ts';
import { marketList } from '../domain/market.ts';
import { checkPlanLimits, limitsOf } from '../domain/plan-limits.ts';
import { cancelTrade } from '../domain/trade.ts';
import { cancelRequest, completeRequestByOwner, mayNotifyTakers, notifyTakers, postRequest } from '../domain/request-transitions.ts';
import { TraderAccount, assertNotDeleted, hasBothAccounts } from '../domain/traders.ts';
import { assertMayTrade } from '../domain/sanctions.ts';
import { requestView, requestViews } from '../domain/views.ts';
import { blockedEitherWay, hasBlocks } from '../domain/blocks.ts';
import { assertVisibleTo } from '../domain/who-may-take.ts';
import { NEEDS_BOTH_ACCOUNTS, REQUEST_NOT_FOUND, type RouteDeps } from './deps.ts';

const routes = Routes.exchange;
export { NOTIFY_EVERY_MS } from '../domain/request-transitions.ts';

/** The owner's request, locked for a change; 404 unknown, 403 someone else's (anyone may read a request). */
async function ownRequest(tx: EntityManager, id: number, userId: number, refusal: string): Promise<ExchangeRequest> {
  const request = await tx.findOne(ExchangeRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!request) throw notFound(REQUEST_NOT_FOUND);
  if (request.userId !== userId) throw forbidden(refusal);
  return request;
}

/** Users who could take a request: both accounts, not its owner, no block between them and the owner. */
async function potentialTakers(em: EntityManager, ownerId: number, excluded: number[]): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(
    `select count(*) as n from (select user_id from ${qualifiedTable(em, TraderAccount)} where user_id <> ?
       group by user_id having count(distinct currency) = 2) takers where user_id <> all(?::int[])`, [ownerId, `{${excluded.join(',')}}`]);
  return Number(row?.n ?? 0);
}

export function exchangeRequestRoutes({ ctx, now }: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    /**
     * Polled (declared so: an unchanged poll is a 304 before this runs, by the viewer's own ETag). A viewer with no
     * blocks gets the list everyone gets, under the market's own ETag, and says so (POLL_AUDIENCE_HEADER) so that
     * the gateway may serve them its one kept copy; a viewer with blocks gets theirs under their own ETag.
     */
    serve(app, routes.requests, async (request, reply) => {
      const { userId } = requireUser(request);
      const everyone = !await hasBlocks(request.em, userId);
      if (everyone) {
        reply.header(POLL_AUDIENCE_HEADER, 'everyone');
        if (await answeredNotModified(request, reply, app.versions, routes.requests.polled.keys())) return reply;
      }
      const { items, total } = await marketList(request.em, request.query, everyone ? undefined : userId);
      reply.header('x-total-count', String(total));
      return items;
    });

    serve(app, routes.myRequests, async (request, reply) => {
      const { userId } = requireUser(request);
      const { limit, offset } = request.query;
      const [requests, total] = await request.em.findAndCount(ExchangeRequest, { userId }, { orderBy: { id: 'desc' }, limit, offset });
      reply.header('x-total-count', String(total));
      return requestViews(request.em, requests);
    });

    serve(app, routes.limits, async (request) => limitsOf(request.em, requireUser(request).userId, now()));

    serve(app, routes.request, async (request) => {
      const { userId } = requireUser(request);
      const found = await request.em.findOne(ExchangeRequest, { id: request.params.id });
      if (!found) throw notFound(REQUEST_NOT_FOUND);
      await assertVisibleTo(request.em, found.userId, userId);
      return requestView(request.em, found);
    });

    /**
     * Not a deleted account nor a suspended trader, both accounts (the spec's message), then the rate band around the newest market rate, then the plan's
     * limits, checked and recorded in one transaction under the poster's lock.
     */
    serve(app, routes.createRequest, async (request) => {
      const { userId } = requireUser(request);
      const { fromCurrency, toCurrency, amount, exchangeRate, minTrustLevel, verifiedOnly } = request.body;
      await assertNotDeleted(request.em, userId);
      await assertMayTrade(request.em, userId);
      if (!await hasBothAccounts(request.em, userId)) throw forbidden(NEEDS_BOTH_ACCOUNTS);
      const market = await newestRate(request.em);
      if (!market) throw new AppError(503, 'rate_unavailable', 'The exchange rate is not available right now.');
      const band = rateBand(market.rate, RATE_BAND_PERCENT);
      if (!within(exchangeRate, band.low, band.high)) {
        throw fieldInvalid('exchangeRate', `The exchange rate must be within ${RATE_BAND_PERCENT}% of the market rate (${market.rate}): from ${band.low} to ${band.high}`);
      }
      const at = now();
      const created = await ctx.change(async (tx) => {
        const money = moneyString(fromCurrency, amount);
        await checkPlanLimits(tx, userId, { currency: fromCurrency, amount: money }, at);
        const posted = tx.create(ExchangeRequest, {
          userId, fromCurrency, toCurrency, amount: money, exchangeRate: decimal(exchangeRate).toFixed(4),
          status: 'open', createdAt: at, updatedAt: at, openSince: at, notifiedAt: null,
          minTrustLevel: minTrustLevel ?? null, verifiedOnly: verifiedOnly ?? false,
        });
        await tx.flush(); // the id goes into the event
        return changed(posted, ...postRequest(posted));
      });
      return requestView(request.em, created);
    });

    /** Open or matched (a pending match is cancelled with it, and its matcher told through the event). */
    serve(app, routes.cancelRequest, async (request) => {
      const { userId } = requireUser(request);
      const at = now();
      const cancelled = await ctx.change(async (tx) => {
        const found = await ownRequest(tx, request.params.id, userId, 'Only the owner can cancel this exchange request');
        const refused = found.status !== 'open' && found.status !== 'matched';
        const pending = refused ? null : await tx.findOne(ExchangeMatch, { requestId: found.id, status: 'pending' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const matchEvents = pending ? await cancelTrade(tx, pending, found, userId, 'request-cancelled', at) : [];
        return changed(found, ...matchEvents, ...cancelRequest(found));
      });
      return requestView(request.em, cancelled);
    });

    /**
     * The owner marks an open request done: it leaves the market for their history (a row with no match); nobody
     * traded with them here, so no trade is counted.
     */
    serve(app, routes.completeRequest, async (request) => {
      const { userId } = requireUser(request);
      const at = now();
      const done = await ctx.change(async (tx) => {
        const found = await ownRequest(tx, request.params.id, userId, 'Only the owner can mark this exchange request done');
        return changed(found, ...completeRequestByOwner(found, at));
      });
      return requestView(request.em, done);
    });

    /**
     * Tells the users who could take it but those blocked either way (the notification service fans out); at most
     * once an hour per request.
     */
    serve(app, routes.notifyRequest, async (request) => {
      const { userId } = requireUser(request);
      const at = now();
      const takers = await ctx.change(async (tx) => {
        const found = await ownRequest(tx, request.params.id, userId, 'Only the owner can send notifications about this exchange request');
        mayNotifyTakers(found, at); // refused before the blocks are read
        const excludedUserIds = await blockedEitherWay(tx, userId);
        const events = notifyTakers(found, at, excludedUserIds);
        return changed(await potentialTakers(tx, userId, excludedUserIds), ...events);
      });
      return { message: takers === 1 ? '1 user will be notified about your exchange request.' : `${takers} users will be notified about your exchange request.` };
    });
  };
}
