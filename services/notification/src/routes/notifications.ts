/**
 * /api/notifications: the caller's own notifications, the unread count, and marking them read. The list and the
 * count are polled every 3 s by every signed-in tab: both answer from the caller's version (domain/notify.ts), so an
 * unchanged poll is a 304 that never reaches the database.
 */
import type { FastifyInstance } from 'fastify';
import { Routes, type Notification as NotificationView } from '@puente/contracts';
import { answeredNotModified, notFound, requireUser, serve, type ServiceContext } from '@puente/platform';
import { Notification } from '../domain/notification.ts';
import { userVersionKey } from '../domain/notify.ts';

const routes = Routes.notification;
export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const ALL_MARKED_READ = 'All notifications marked as read';

/** A notification as the contract shows it (without the user and the source event). */
export function notificationView(n: Notification): NotificationView {
  return { id: n.id, type: n.type, content: n.content, read: n.read, referenceId: n.referenceId ?? null, createdAt: n.createdAt.toISOString() };
}

export function notificationRoutes({ versions }: Pick<ServiceContext, 'versions'>) {
  return async (app: FastifyInstance): Promise<void> => {
    /** Own notifications, newest first (by id: ids grow with creation; the (user_id, id) index serves it). */
    serve(app, routes.list, async (request, reply) => {
      const { userId } = requireUser(request);
      if (await answeredNotModified(request, reply, versions, [userVersionKey(userId)])) return reply;
      const { limit, offset } = request.query;
      const [rows, total] = await request.em.findAndCount(Notification, { userId }, { orderBy: { id: 'desc' }, limit, offset });
      reply.header('x-total-count', String(total));
      return rows.map(notificationView);
    });

    serve(app, routes.count, async (request, reply) => {
      const { userId } = requireUser(request);
      if (await answeredNotModified(request, reply, versions, [userVersionKey(userId)])) return reply;
      return { count: await request.em.count(Notification, { userId, read: false }) };
    });

    serve(app, routes.readAll, async (request) => {
      const { userId } = requireUser(request);
      if (await request.em.nativeUpdate(Notification, { userId, read: false }, { read: true }) > 0) await versions.bump([userVersionKey(userId)]);
      return { message: ALL_MARKED_READ };
    });

    /** Own only: another user's notification is as unknown as a missing one (404, never 403). Idempotent. */
    serve(app, routes.read, async (request) => {
      const { userId } = requireUser(request);
      const found = await request.em.findOne(Notification, { id: request.params.id, userId });
      if (!found) throw notFound(NOTIFICATION_NOT_FOUND);
      if (!found.read) {
        await request.em.nativeUpdate(Notification, { id: found.id, userId }, { read: true });
        await versions.bump([userVersionKey(userId)]);
        found.read = true;
      }
      return notificationView(found);
    });
  };
}
