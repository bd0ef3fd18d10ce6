/**
 * The state changes of stored notifications after they were made (domain/notify.ts makes them): unread → read, one
 * or all of a user's, and read ones deleted once old. Each returns the local change the version table
 * (notification-versions.ts) turns into new versions of the users' polled list and count; none when nothing changed,
 * so an idempotent repeat leaves the ETag as it was.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { changed, qualifiedTable, type Changed } from '@puente/platform';
import { Notification } from './notification.ts';
import { local } from './notification-versions.ts';

/** Marks the notification read (it is the caller's: the route found it by id and user). */
export async function markRead(em: EntityManager, notification: Notification): Promise<Changed<Notification>> {
  if (notification.read) return changed(notification);
  await em.nativeUpdate(Notification, { id: notification.id, userId: notification.userId }, { read: true });
  notification.read = true;
  return changed(notification, local('notificationsRead', { userId: notification.userId }));
}

/** Marks every unread notification of the user read; answers how many. */
export async function markAllRead(em: EntityManager, userId: number): Promise<Changed<number>> {
  const marked = await em.nativeUpdate(Notification, { userId, read: false }, { read: true });
  return marked > 0 ? changed(marked, local('notificationsRead', { userId })) : changed(marked);
}

/** Deletes up to `batch` read notifications created before `before`; answers how many. */
export async function purgeReadBatch(em: EntityManager, before: Date, batch: number): Promise<Changed<number>> {
  const table = qualifiedTable(em, Notification);
  const rows = await em.execute<{ user_id: number }[]>(
    `delete from ${table} where id in (select id from ${table} where read and created_at < ? order by id limit ?) returning user_id`,
    [before, batch]);
  if (rows.length === 0) return changed(0);
  return changed(rows.length, local('notificationsRemoved', { userIds: [...new Set(rows.map((r) => r.user_id))] }));
}
