/**
 * Daily: read notifications older than 90 days are deleted, in batches (never one long delete holding the table).
 * Unread ones stay whatever their age. Each user who lost some gets a new version, so their polled list answers anew.
 */
import { z } from 'zod';
import { defineJob, type ServiceContext } from '@puente/platform';
import { purgeReadBatch } from '../domain/notification-transitions.ts';

export const PURGE_READ_NOTIFICATIONS = 'purge-read-notifications';
export const PURGE_EVERY_MS = 24 * 3600 * 1000;
export const READ_NOTIFICATIONS_KEPT_DAYS = 90;
const BATCH = 1000;

/** Deletes the read notifications created before `now` less 90 days; returns how many. */
export async function purgeReadNotifications(ctx: Pick<ServiceContext, 'change'>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - READ_NOTIFICATIONS_KEPT_DAYS * 24 * 3600 * 1000);
  let purged = 0;
  for (;;) {
    const deleted = await ctx.change((tx) => purgeReadBatch(tx, before, BATCH));
    purged += deleted;
    if (deleted < BATCH) return purged;
  }
}

export function purgeReadNotificationsJob(now: () => Date) {
  return defineJob({
    name: PURGE_READ_NOTIFICATIONS,
    schema: z.object({}),
    attempts: 3,
    timeoutMs: 10 * 60_000,
    async handle(_data, ctx) {
      const purged = await purgeReadNotifications(ctx, now());
      if (purged > 0) ctx.logger.info({ purged }, 'read notifications purged');
    },
  });
}
