/**
 * /api/notifications: the caller's own notifications, the unread count, and marking them read. The list and the
 * count are polled every 3 s by every signed-in tab: both are declared polled on the caller's versions
 * (NotificationVersions), so an unchanged poll is a 304 that never reaches this service's database.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { notFound, requireUser, serve, type ServiceContext } from '@puente/platform';
import { Notification, notificationView } from '../domain/notification.ts';
import { markAllRead, markRead } from '../domain/notification-transitions.ts';

const routes = Routes.notification;
export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const ALL_MARKED_READ = 'All notifications marked as read';

export function notificationRoutes(ctx: Pick<ServiceContext, 'change'>) {
  return async (app: FastifyInstance): Promise<void> => {
    /** Own notifications, newest first (by id: ids grow with creation; the (user_id, id) index serves it). */
    serve(app, routes.list, async (request, reply) => {
      const { userId } = requireUser(request);
      const { limit, offset } = request.query;
      const [rows, total] = await request.em.findAndCount(Notification, { userId }, { orderBy: { id: 'desc' }, limit, offset });
      reply.header('x-total-count', String(total));
      return rows.map(notificationView);
    });

    serve(app, routes.count, async (request) => {
      const { userId } = requireUser(request);
      return { count: await request.em.count(Notification, { userId, read: false }) };
    });

    serve(app, routes.readAll, async (request) => {
      const { userId } = requireUser(request);
      await ctx.change((tx) => markAllRead(tx, userId));
      return { message: ALL_MARKED_READ };
    });

    /** Own only: another user's notification is as unknown as a missing one (404, never 403). Idempotent. */
    serve(app, routes.read, async (request) => {
      const { userId } = requireUser(request);
      const found = await request.em.findOne(Notification, { id: request.params.id, userId });
      if (!found) throw notFound(NOTIFICATION_NOT_FOUND);
      return notificationView(found.read ? found : await ctx.change((tx) => markRead(tx, found)));
    });
  };
}
