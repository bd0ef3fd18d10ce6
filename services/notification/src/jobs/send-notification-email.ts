/**
 * A notification emailed at once, not only in the digest: the receipt question (receipt_question), which has a
 * deadline. Enqueued by its consumer in the inbox's transaction with what the email words (the job may run before
 * that transaction commits, so it reads no row), one job per source event and user (the job id: a redelivery's
 * enqueue is a no-op). The job reads the address and language from identity at send time (never from the bus) and
 * sends it in the reader's language (domain/email-texts.ts). The digest may list it again later while it stays
 * unread, as it lists everything unread.
 */
import { z } from 'zod';
import { Id, NotificationParams, Routes } from '@puente/contracts';
import { callRoute, defineJob, type JobQueue, type Mailer, type ServiceContext } from '@puente/platform';
import { emailTexts } from '../domain/email-texts.ts';

export const SEND_NOTIFICATION_EMAIL = 'send-notification-email';

export const NotificationEmailData = z.object({
  /** The event that asked: with the user, the job's id. */
  eventId: z.uuid(),
  userId: Id,
  /** The stored notification's wording: its type, English content, params and request. */
  notification: z.object({ type: z.literal('receipt_question'), content: z.string(), params: NotificationParams, referenceId: Id.nullable() }),
  /** When the question's answer is due (the email says by when, in UTC). */
  dueAt: z.iso.datetime(),
});
export type NotificationEmailData = z.infer<typeof NotificationEmailData>;

export async function enqueueNotificationEmail(jobs: Pick<JobQueue, 'enqueue'>, data: NotificationEmailData): Promise<void> {
  await jobs.enqueue(SEND_NOTIFICATION_EMAIL, data, { jobId: `notification-email:${data.eventId}:${data.userId}` });
}

export interface NotificationEmailDeps {
  mailer: Mailer;
  /** PUBLIC_URL: the link to the trade. */
  publicUrl: string;
}

export type NotificationEmailOutcome = 'sent' | 'unknown-user';

export async function sendNotificationEmail(
  ctx: Pick<ServiceContext, 'callService' | 'logger'>, deps: NotificationEmailDeps, { userId, notification, dueAt }: NotificationEmailData,
): Promise<NotificationEmailOutcome> {
  const [user] = await callRoute(ctx, 'identity', Routes.identity.internalUsers, { ids: String(userId) });
  if (!user) {
    ctx.logger.info({ userId }, 'notification email skipped: identity does not know the user');
    return 'unknown-user';
  }
  const email = emailTexts[user.language].receiptQuestion({ firstName: user.firstName, notification, dueAt: new Date(dueAt), publicUrl: deps.publicUrl });
  await deps.mailer.send({ kind: 'receipt-question', to: user.email, ...email });
  return 'sent';
}

export function sendNotificationEmailJob(deps: NotificationEmailDeps) {
  return defineJob({
    name: SEND_NOTIFICATION_EMAIL,
    schema: NotificationEmailData,
    // Identity or the mail server may be briefly away: retried with backoff, then kept as a failed job.
    attempts: 5,
    backoffMs: 10_000,
    async handle(data, ctx) {
      await sendNotificationEmail(ctx, deps, data);
    },
  });
}
