/**
 * Disputes (domain/disputes.ts): a party opens one on a confirmed match and reads it; admins work through the
 * queue, read a dispute with both parties' history, resolve it and lift suspensions; anyone reads a user's dispute
 * outcomes (shown on profiles).
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { notFound, requireUser, serve } from '@puente/platform';
import { ExchangeMatch } from '../domain/exchange-match.ts';
import {
  DISPUTE_NOT_FOUND, Dispute, disputeOutcomes, disputeView, partyHistory, partyNames,
} from '../domain/disputes.ts';
import { openDisputeOn, resolveDisputeById } from '../domain/trade.ts';
import { TradingSanction } from '../domain/sanctions.ts';
import { matchView } from '../domain/views.ts';
import { visibleMatch, type RouteDeps } from './deps.ts';

const routes = Routes.exchange;
const NOT_SUSPENDED = 'This user\'s trading is not suspended';

export function disputeRoutes({ ctx, now }: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, routes.openDispute, async (request) => {
      const caller = requireUser(request);
      const match = await visibleMatch(request, request.params.id, false);
      const dispute = await ctx.change((tx) => openDisputeOn(tx, match, caller.userId, request.body, now()));
      return disputeView(dispute);
    });

    serve(app, routes.matchDispute, async (request) => {
      const match = await visibleMatch(request, request.params.id, true);
      const dispute = await request.em.findOne(Dispute, { matchId: match.id });
      if (!dispute) throw notFound(DISPUTE_NOT_FOUND);
      return disputeView(dispute);
    });

    /** Open ones first (the work to do), then resolved, newest first within each. */
    serve(app, routes.disputeQueue, async (request, reply) => {
      const { limit, offset, status } = request.query;
      const [disputes, total] = await request.em.findAndCount(Dispute, status ? { status } : {},
        { orderBy: [{ status: 'asc' }, { openedAt: 'desc' }, { id: 'desc' }], limit, offset });
      const names = await partyNames(request.em, disputes.flatMap((d) => [d.requesterId, d.matcherId]));
      reply.header('x-total-count', String(total));
      return disputes.map((d) => ({ ...disputeView(d), requester: names.get(d.requesterId)!, matcher: names.get(d.matcherId)! }));
    });

    serve(app, routes.disputeDetail, async (request) => {
      const dispute = await request.em.findOne(Dispute, { id: request.params.id });
      if (!dispute) throw notFound(DISPUTE_NOT_FOUND);
      const match = await request.em.findOneOrFail(ExchangeMatch, { id: dispute.matchId });
      return {
        dispute: disputeView(dispute),
        match: await matchView(request.em, match),
        requester: await partyHistory(request.em, dispute.requesterId, dispute.id),
        matcher: await partyHistory(request.em, dispute.matcherId, dispute.id),
      };
    });

    serve(app, routes.resolveDispute, async (request) => {
      const { userId } = requireUser(request);
      const resolved = await ctx.change((tx) => resolveDisputeById(tx, request.params.id, userId, request.body, now()));
      if (!resolved) throw notFound(DISPUTE_NOT_FOUND);
      return disputeView(resolved);
    });

    serve(app, routes.liftSuspension, async (request) => {
      const { userId: adminId } = requireUser(request);
      const lifted = await request.em.nativeUpdate(TradingSanction,
        { userId: request.params.userId, kind: 'suspension', liftedAt: null }, { liftedAt: now(), liftedById: adminId });
      if (lifted === 0) throw notFound(NOT_SUSPENDED);
    });

    serve(app, routes.disputeOutcomes, async (request) => disputeOutcomes(request.em, request.params.id));

    /** Identity's snapshot of resolved disputes (its directory's dispute outcomes), a page by id. */
    serve(app, routes.resolvedDisputes, async (request) => {
      const { afterId, limit } = request.query;
      const disputes = await request.em.find(Dispute, { id: { $gt: afterId }, status: 'resolved' }, { orderBy: { id: 'asc' }, limit });
      return disputes.map((d) => ({
        disputeId: d.id, requesterId: d.requesterId, matcherId: d.matcherId, outcome: d.outcome!,
        sanction: d.sanctionUserId && d.sanctionKind ? { userId: d.sanctionUserId, kind: d.sanctionKind } : null,
      }));
    });
  };
}
