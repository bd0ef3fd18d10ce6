import { defineEntity, p } from '@mikro-orm/postgresql';
import { NotificationType, type NotificationParams, type Notification as NotificationView } from '@puente/contracts';

/**
 * A user's in-app notification (spec section 3). `referenceId` is what it is about (a request, a match, a rating).
 * `sourceEventId` is the event that caused it: with the unique index on (userId, sourceEventId), a redelivered
 * event or a retried fan-out page never notifies a user twice (notifications without a source are not constrained:
 * Postgres keeps nulls distinct).
 */
export const NotificationSchema = defineEntity({
  name: 'Notification',
  tableName: 'notification',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    type: p.enum(NotificationType.options),
    content: p.text(),
    // What a client words the notification from in its reader's language; null for those stored before it.
    params: p.json<NotificationParams>().nullable(),
    read: p.boolean().default(false),
    referenceId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sourceEventId: p.uuid().nullable(),
  },
  uniques: [{ name: 'notification_user_id_source_event_id_unique', properties: ['userId', 'sourceEventId'] }],
  indexes: [
    // The list and count routes read one user's notifications, newest first.
    { name: 'notification_user_id_id_index', properties: ['userId', 'id'] },
    // The digest's scan every minute reads unread ones only: a small index however many were read.
    { name: 'notification_unread_user_id_id_index', expression: 'create index "notification_unread_user_id_id_index" on "notification"."notification" ("user_id", "id") where not "read"' },
  ],
});
export class Notification extends NotificationSchema.class {}
NotificationSchema.setClass(Notification);

/** A notification as the contract shows it (without the user and the source event). */
export function notificationView(n: Notification): NotificationView {
  return { id: n.id, type: n.type, content: n.content, params: n.params ?? null, read: n.read, referenceId: n.referenceId ?? null, createdAt: n.createdAt.toISOString() };
}
