/**
 * In-app notifications and the live channel's messages.
 * Calls: GET /api/notifications, GET /api/notifications/count, PUT /api/notifications/read-all,
 * PUT /api/notifications/{id}/read; WebSocket /ws.
 */
import { z } from 'zod';
import { Count, Id, IsoDateTime, Message } from './common.ts';

export const NotificationType = z.enum([
  'exchange_request',
  'exchange_match',
  'exchange_confirmed',
  'exchange_completed',
  'rating',
]);
export type NotificationType = z.infer<typeof NotificationType>;

/**
 * A notification: the items of GET /api/notifications and the answer to PUT .../{id}/read (200). referenceId is the
 * id of what it is about (an exchange request, a match or a rating), or null.
 */
export const Notification = z.object({
  id: Id,
  type: NotificationType,
  content: z.string(),
  read: z.boolean(),
  referenceId: Id.nullable(),
  createdAt: IsoDateTime,
});
export type Notification = z.infer<typeof Notification>;

export const NotificationList = z.array(Notification);
export type NotificationList = z.infer<typeof NotificationList>;

/** GET /api/notifications/count: the number of unread notifications. */
export const NotificationCount = z.object({ count: Count });
export type NotificationCount = z.infer<typeof NotificationCount>;

/** PUT /api/notifications/read-all, 200 */
export const MarkAllReadResponse = Message;
export type MarkAllReadResponse = z.infer<typeof MarkAllReadResponse>;

/**
 * Live message: a match was confirmed and bank details are available to both parties. It is a signal: the web app
 * refreshes its matches (spec section 7) and reads the details over HTTP; bank details never travel on the bus.
 */
export const MatchSuccessMessage = z.object({
  type: z.literal('match_success'),
  data: z.object({ matchId: Id, requestId: Id }),
});
export type MatchSuccessMessage = z.infer<typeof MatchSuccessMessage>;

/** Live message: a notification was added (the web shows its content). */
export const NewNotificationMessage = z.object({ type: z.literal('new_notification'), notification: Notification });
export type NewNotificationMessage = z.infer<typeof NewNotificationMessage>;

/** Every JSON message the server sends on /ws. */
export const LiveMessage = z.discriminatedUnion('type', [MatchSuccessMessage, NewNotificationMessage]);
export type LiveMessage = z.infer<typeof LiveMessage>;
