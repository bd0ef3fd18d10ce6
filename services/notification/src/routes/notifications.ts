/**
 * /api/notifications: the caller's own notifications, the unread count, and marking them read. The list and the
 * count are polled every 3 s by every signed-in tab: both are declared polled on the caller's versions
 * (NotificationVersions), so an unchanged poll is a 304 that never reaches this service's database.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { notFound, qualifiedTable, requireUser, serve, type ServiceContext } from '@puente/platform';
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

    /**
     * The gateway's batch of first polls (users arriving together, as after a deploy): what each one's list page and
     * count answer, in three queries for all of them rather than three per user.
     */
    serve(app, routes.firstPolls, async (request) => {
      const { userIds, limit } = request.body;
      const em = request.em;
      const table = qualifiedTable(em, Notification);
      const [pages, tallies] = await Promise.all([
        em.execute<{ id: number }[]>(
          `select id from (select id, row_number() over (partition by user_id order by id desc) as n from ${table}
            where user_id = any(?::int[])) page where n <= ?`, [`{${userIds.join(',')}}`, limit]),
        em.execute<{ user_id: number; total: string; unread: string }[]>(
          `select user_id, count(*) as total, count(*) filter (where not read) as unread from ${table}
            where user_id = any(?::int[]) group by user_id`, [`{${userIds.join(',')}}`]),
      ]);
      const listed = pages.length === 0 ? [] : await em.find(Notification, { id: { $in: pages.map((p) => p.id) } }, { orderBy: { id: 'desc' } });
      const byUser = Map.groupBy(listed, (n) => n.userId);
      const tally = new Map(tallies.map((t) => [t.user_id, t]));
      return userIds.map((userId) => ({
        userId, notifications: (byUser.get(userId) ?? []).map(notificationView),
        total: Number(tally.get(userId)?.total ?? 0), unread: Number(tally.get(userId)?.unread ?? 0),
      }));
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
