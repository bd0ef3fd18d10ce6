/**
 * The fan-out of exchange.request.notifications-sent: one job per page of users who could take the request, each
 * enqueuing the next while its page was full — never one giant query or event. The first page's job is enqueued by
 * the consumer (events/consumers.ts). Every page is idempotent (the unique (user, source event) index): a retried
 * or repeated page notifies nobody twice, and its next page's job id dedupes a second enqueue.
 */
import { z } from 'zod';
import { Currency, DecimalString, formatNotification, Id, readerAmounts } from '@puente/contracts';
import { changed, defineJob, type JobQueue } from '@puente/platform';
import { notifyTakersPage } from '../domain/fan-out.ts';
import { announce } from '../domain/notify.ts';

export const FAN_OUT_REQUEST_NOTIFICATION = 'fan-out-request-notification';
/** Users notified per job. */
export const FAN_OUT_PAGE_SIZE = 500;

export const FanOutData = z.object({
  /** The notifications-sent event: each notification's source, so one event notifies a user once. */
  eventId: z.uuid(),
  requestId: Id,
  ownerId: Id,
  terms: z.object({ fromCurrency: Currency, toCurrency: Currency, amount: DecimalString, exchangeRate: DecimalString }),
  /** The page starts after this user id (0 for the first). */
  afterUserId: z.number().int().min(0),
  /** Users blocked by or blocking the owner: not told (absent from jobs enqueued before blocks existed). */
  excludedUserIds: z.array(Id).default([]),
});
export type FanOutData = z.infer<typeof FanOutData>;

/** Enqueues one page; the job id (event and page start) makes a second enqueue of the same page a no-op. */
export async function enqueueFanOutPage(jobs: Pick<JobQueue, 'enqueue'>, data: FanOutData): Promise<void> {
  await jobs.enqueue(FAN_OUT_REQUEST_NOTIFICATION, data, { jobId: `${data.eventId}:${data.afterUserId}` });
}

export function fanOutRequestNotificationJob(pageSize: number) {
  return defineJob({
    name: FAN_OUT_REQUEST_NOTIFICATION,
    schema: FanOutData,
    attempts: 10,
    backoffMs: 1_000,
    async handle(data, ctx) {
      const { eventId, requestId, ownerId, terms, afterUserId, excludedUserIds } = data;
      // Everyone told could take the request: each reads it as its taker would trade it (what they pay and receive).
      const params = { ...terms, ...readerAmounts(terms, 'matcher') };
      const content = formatNotification('en', 'exchange_request', { requestId, ...params });
      const page = await ctx.change(async (tx) => {
        const stored = await notifyTakersPage(tx, { eventId, requestId, ownerId, afterUserId, excludedUserIds, content, params }, pageSize);
        return changed(stored, ...announce(stored.notified));
      });
      ctx.logger.debug({ eventId, requestId, afterUserId, users: page.users, notified: page.notified.length }, 'exchange request fan-out page');
      if (page.users === pageSize && page.lastUserId !== null) await enqueueFanOutPage(ctx.jobs, { ...data, afterUserId: page.lastUserId });
    },
  });
}
