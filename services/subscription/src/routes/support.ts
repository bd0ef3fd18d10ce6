/** Priority support (domain/support.ts): users write and read their own requests; admins work the queue. */
import type { FastifyInstance } from 'fastify';
import { MAX_OPEN_SUPPORT_REQUESTS, Routes, SupportRefusal } from '@puente/contracts';
import { AppError, notFound, requireAdmin, requireUser, serve } from '@puente/platform';
import { Subscription } from '../domain/subscription.ts';
import { queueItem, SupportRequest, supportQueue, supportView } from '../domain/support.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.subscription;
export const TOO_MANY_OPEN = `You have ${MAX_OPEN_SUPPORT_REQUESTS} open support requests: please wait for an answer before writing another.`;
export const SUPPORT_REQUEST_NOT_FOUND = 'Support request not found';
export const ALREADY_RESOLVED = 'This support request has already been answered or closed';

export function supportRoutes({ now }: Pick<RouteDeps, 'now'>) {
  return async (app: FastifyInstance): Promise<void> => {
    /** 409 over the open limit (two at once may both pass under it: the limit only bounds a flood). */
    serve(app, routes.createSupportRequest, async (request) => {
      const { userId } = requireUser(request);
      if (await request.em.count(SupportRequest, { userId, status: 'open' }) >= MAX_OPEN_SUPPORT_REQUESTS) throw new AppError(409, SupportRefusal.tooManyOpen, TOO_MANY_OPEN);
      const created = request.em.create(SupportRequest, { userId, ...request.body, status: 'open', createdAt: now() });
      await request.em.flush();
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

    /** Only an open request changes (one conditional update: two admins at once resolve it once); 404, 409. */
    serve(app, routes.resolveSupportRequest, async (request) => {
      const admin = requireAdmin(request);
      const { id } = request.params;
      const { status, reply } = request.body;
      const changed = await request.em.nativeUpdate(SupportRequest, { id, status: 'open' },
        { status, reply: reply ?? null, resolvedAt: now(), resolvedById: admin.userId });
      const row = await request.em.findOne(SupportRequest, { id });
      if (!row) throw notFound(SUPPORT_REQUEST_NOT_FOUND);
      if (changed === 0) throw new AppError(409, SupportRefusal.resolved, ALREADY_RESOLVED);
      const plan = await request.em.findOne(Subscription, { userId: row.userId }, { fields: ['tier'] });
      return queueItem(row, plan?.tier ?? null);
    });
  };
}
