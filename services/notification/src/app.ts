/**
 * Notification: in-app notifications, announced live, and an email digest of what stays unread. Owns schema
 * `notification`. Notifications come from events: the fan-out of an exchange request to the users who could take it
 * (page by page in jobs, from its own projection of who holds an account in which currency), each step of an
 * exchange to its parties (naming the other party from its projection of users' names), ratings, failed premium
 * payments; each is announced (notificationCreated, and matchAnnounced on a confirmed match) for the gateway's live
 * channel. The routes read them (list, unread count: polled, so answered 304 from the caller's version), mark them
 * read, and keep the email digest preference; jobs email the receipt question at once, digests of notifications
 * unread for NOTIFY_EMAIL_AFTER_MINUTES, and purge read ones after 90 days. A user who deletes their account loses
 * all of it, and is notified of nothing more.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  MailSettings, ProjectionBackfillSchema, ProjectionBackfillSetting, blankAsUnset, defineService, mailConfig, mailInProduction, publicUrlOf, serviceMailer,
} from '@puente/platform';
import { NotificationSchema } from './domain/notification.ts';
import { AccountHolderSchema } from './domain/account-holders.ts';
import { NotificationPreferenceSchema } from './domain/preferences.ts';
import { FAN_OUT_PAGE_SIZE, fanOutRequestNotificationJob } from './jobs/fan-out-request-notification.ts';
import { backfill } from './jobs/backfill-account-holders.ts';
import { EMAIL_DIGESTS, EMAIL_DIGESTS_EVERY_MS, emailDigestsJob, sendEmailDigestJob } from './jobs/email-digest.ts';
import { sendNotificationEmailJob } from './jobs/send-notification-email.ts';
import { PURGE_EVERY_MS, PURGE_READ_NOTIFICATIONS, purgeReadNotificationsJob } from './jobs/purge-read-notifications.ts';
import { consumers } from './events/consumers.ts';
import { notificationVersions } from './domain/notification-versions.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { preferenceRoutes } from './routes/preferences.ts';
import { personalDataRoutes } from './routes/personal-data.ts';
import { DeletedAccountSchema } from './domain/deleted-accounts.ts';
import { UserNameSchema } from './domain/user-names.ts';

const minutes = (name: string) => {
  const message = `${name} must be a whole number of minutes from 1 to 10080`;
  return blankAsUnset(z.coerce.number({ error: message }).int(message).min(1, message).max(10_080, message).optional());
};

/**
 * The notification service's settings (besides the service settings every process reads). The email digest's
 * defaults are applied by notificationService, as identity applies its own.
 */
export const NotificationSettings = z.object({
  /**
   * 'on': a start without the account holders' snapshot fills it from the accounts service (internal route).
   * 'off' where Kafka keeps every event from the beginning and replaying it suffices.
   */
  PROJECTION_BACKFILL: ProjectionBackfillSetting,
  /** A notification still unread this long after it came is emailed in a digest (default 10). */
  NOTIFY_EMAIL_AFTER_MINUTES: minutes('NOTIFY_EMAIL_AFTER_MINUTES'),
  /** At most one digest per user in this many minutes (default 60). */
  NOTIFY_EMAIL_MIN_INTERVAL_MINUTES: minutes('NOTIFY_EMAIL_MIN_INTERVAL_MINUTES'),
  // NODE_ENV, SMTP_URL, MAIL_FROM, MAIL_DIR and PUBLIC_URL, as identity reads them: in production SMTP_URL (or
  // MAIL_DIR) and PUBLIC_URL are required.
  ...MailSettings.shape,
}).superRefine(mailInProduction);
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export interface NotificationOptions {
  /** Users notified per fan-out job (tests make it small to see the paging). */
  fanOutPageSize?: number;
  /** The clock of the email digest and the purge (tests move it past delays and intervals). */
  now?: () => Date;
}

export function notificationService(
  settings: NotificationSettings = NotificationSettings.parse({}),
  { fanOutPageSize = FAN_OUT_PAGE_SIZE, now = () => new Date() }: NotificationOptions = {},
) {
  if (!Number.isInteger(fanOutPageSize) || fanOutPageSize < 1) throw new Error(`fanOutPageSize must be a positive whole number, got ${fanOutPageSize}`);
  const rules = {
    afterMinutes: settings.NOTIFY_EMAIL_AFTER_MINUTES ?? 10,
    minIntervalMinutes: settings.NOTIFY_EMAIL_MIN_INTERVAL_MINUTES ?? 60,
  };
  const mailer = serviceMailer(mailConfig(settings));
  return defineService({
    name: 'notification',
    entities: [NotificationSchema, AccountHolderSchema, ProjectionBackfillSchema, NotificationPreferenceSchema, DeletedAccountSchema, UserNameSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    versions: notificationVersions,
    jobs: [
      fanOutRequestNotificationJob(fanOutPageSize), backfill.job,
      emailDigestsJob(rules, now), sendEmailDigestJob({ rules, now, mailer, publicUrl: publicUrlOf(settings) }), purgeReadNotificationsJob(now),
      sendNotificationEmailJob({ mailer, publicUrl: publicUrlOf(settings) }),
    ],
    schedules: [
      { job: EMAIL_DIGESTS, everyMs: EMAIL_DIGESTS_EVERY_MS, schedulerId: EMAIL_DIGESTS },
      { job: PURGE_READ_NOTIFICATIONS, everyMs: PURGE_EVERY_MS, schedulerId: PURGE_READ_NOTIFICATIONS },
    ],
    async onStart(ctx) {
      await mailer.start(ctx.logger);
      if (settings.PROJECTION_BACKFILL === 'on') await backfill.startIfPending(ctx);
    },
    async routes(app, ctx) {
      app.addHook('onClose', async () => { mailer.close(); });
      await app.register(notificationRoutes(ctx));
      await app.register(preferenceRoutes);
      await app.register(personalDataRoutes);
    },
  });
}
