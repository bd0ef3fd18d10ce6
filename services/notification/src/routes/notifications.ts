/** /api/notifications: the caller's own notifications, the unread count, and marking them read. */
import type { FastifyInstance } from 'fastify';
import { Routes, type Notification as NotificationView } from '@puente/contracts';
import { notFound, requireUser, serve } from '@puente/platform';
import { Notification } from '../domain/notification.ts';

const routes = Routes.notification;
export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const ALL_MARKED_READ = 'All notifications marked as read';

/** A notification as the contract shows it (without the user and the source event). */
export function notificationView(n: Notification): NotificationView {
  return { id: n.id, type: n.type, content: n.content, read: n.read, referenceId: n.referenceId ?? null, createdAt: n.createdAt.toISOString() };
}

export function notificationRoutes() {
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
      await request.em.nativeUpdate(Notification, { userId, read: false }, { read: true });
      return { message: ALL_MARKED_READ };
    });

    /** Own only: another user's notification is as unknown as a missing one (404, never 403). Idempotent. */
    serve(app, routes.read, async (request) => {
      const { userId } = requireUser(request);
      const found = await request.em.findOne(Notification, { id: request.params.id, userId });
      if (!found) throw notFound(NOTIFICATION_NOT_FOUND);
      if (!found.read) {
        await request.em.nativeUpdate(Notification, { id: found.id, userId }, { read: true });
        found.read = true;
      }
      return notificationView(found);
    });
  };
}
