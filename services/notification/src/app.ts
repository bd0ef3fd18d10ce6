/**
 * Notification: in-app notifications and the live match announcements. Owns schema `notification`.
 * Built so far: the fan-out of an exchange request to the users who could take it (exchange.request.notifications-
 * sent → one exchange_request notification each, page by page in jobs), from its own projection of who holds an
 * account in which currency (accounts' events, and their snapshot at the first start); and the routes that read
 * them: the caller's list (newest first, paginated), the unread count, mark one or all read.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ProjectionBackfillSchema, ProjectionBackfillSetting, defineService } from '@puente/platform';
import { NotificationSchema } from './domain/notification.ts';
import { AccountHolderSchema } from './domain/account-holders.ts';
import { FAN_OUT_PAGE_SIZE, fanOutRequestNotificationJob } from './jobs/fan-out-request-notification.ts';
import { backfill } from './jobs/backfill-account-holders.ts';
import { consumers } from './events/consumers.ts';
import { notificationRoutes } from './routes/notifications.ts';

/** The notification service's settings (besides the service settings every process reads). */
export const NotificationSettings = z.object({
  /**
   * 'on': a start without the account holders' snapshot fills it from the accounts service (internal route).
   * 'off' where Kafka keeps every event from the beginning and replaying it suffices.
   */
  PROJECTION_BACKFILL: ProjectionBackfillSetting,
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export interface NotificationOptions {
  /** Users notified per fan-out job (tests make it small to see the paging). */
  fanOutPageSize?: number;
}

export function notificationService(
  settings: NotificationSettings = NotificationSettings.parse({}),
  { fanOutPageSize = FAN_OUT_PAGE_SIZE }: NotificationOptions = {},
) {
  if (!Number.isInteger(fanOutPageSize) || fanOutPageSize < 1) throw new Error(`fanOutPageSize must be a positive whole number, got ${fanOutPageSize}`);
  return defineService({
    name: 'notification',
    entities: [NotificationSchema, AccountHolderSchema, ProjectionBackfillSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    jobs: [fanOutRequestNotificationJob(fanOutPageSize), backfill.job],
    async onStart(ctx) {
      if (settings.PROJECTION_BACKFILL === 'on') await backfill.startIfPending(ctx);
    },
    async routes(app) {
      await app.register(notificationRoutes());
    },
  });
}
