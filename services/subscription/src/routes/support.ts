/** Priority support (domain/support.ts): users write and read their own requests; admins work the queue. */
import type { FastifyInstance } from 'fastify';
import { LockMode } from '@mikro-orm/postgresql';
import { Routes } from '@puente/contracts';
import { notFound, requireAdmin, requireUser, serve } from '@puente/platform';
import { Subscription } from '../domain/subscription.ts';
import { queueItem, SupportRequest, supportQueue, supportView } from '../domain/support.ts';
import { openSupportRequest, resolveSupportRequest } from '../domain/support-transitions.ts';
import type { RouteDeps } from './deps.ts';

export { ALREADY_RESOLVED, TOO_MANY_OPEN } from '../domain/support-transitions.ts';

const routes = Routes.subscription;
export const SUPPORT_REQUEST_NOT_FOUND = 'Support request not found';

export function supportRoutes({ ctx, now }: Pick<RouteDeps, 'ctx' | 'now'>) {
  return async (app: FastifyInstance): Promise<void> => {
    /** 409 over the open limit (two at once may both pass under it: the limit only bounds a flood). */
    serve(app, routes.createSupportRequest, async (request) => {
      const { userId } = requireUser(request);
      // In the service's transaction: an Idempotency-Key sent with it is recorded with the request it creates.
      const created = await ctx.transaction(async (tx) => {
        const openCount = await tx.count(SupportRequest, { userId, status: 'open' });
        return tx.create(SupportRequest, openSupportRequest(userId, request.body, openCount, now()));
      });
      return supportView(created);
    });

    serve(app, routes.mySupportRequests, async (request, reply) => {
      const { userId } = requireUser(request);
      const [rows, total] = await request.em.findAndCount(SupportRequest, { userId },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: request.query.limit, offset: request.query.offset });
      reply.header('x-total-count', String(total));
      return rows.map(supportView);
    });

    serve(app, routes.supportQueue, async (request, reply) => {
      requireAdmin(request);
      const { items, total } = await supportQueue(request.em, request.query.limit, request.query.offset);
      reply.header('x-total-count', String(total));
      return items;
    });

    /** Only an open request changes, under its row lock (two admins at once resolve it once); 404, 409. */
    serve(app, routes.resolveSupportRequest, async (request) => {
      const admin = requireAdmin(request);
      const row = await request.em.transactional(async (tx) => {
        const found = await tx.findOne(SupportRequest, { id: request.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw notFound(SUPPORT_REQUEST_NOT_FOUND);
        resolveSupportRequest(found, request.body, admin.userId, now());
        return found;
      });
      const plan = await request.em.findOne(Subscription, { userId: row.userId }, { fields: ['tier'] });
      return queueItem(row, plan?.tier ?? null);
    });
  };
}
