/** Retention: deletes sign-up and login attempts, and admins' reads of chats, older than AUDIT_RETENTION_DAYS. Scheduled daily in app.ts. */
import { z } from 'zod';
import { defineJob } from '@puente/platform';
import { LoginAttempt, SignupAttempt } from '../domain/attempts.ts';
import { AdminChatRead } from '../domain/admin-reads.ts';

export const PURGE_OLD_ATTEMPTS = 'purge-old-attempts';
const DAY_MS = 86_400_000;

export function purgeOldAttempts(opts: { retentionDays: number }) {
  return defineJob({
    name: PURGE_OLD_ATTEMPTS,
    schema: z.object({}),
    attempts: 3,
    backoffMs: 60_000,
    timeoutMs: 10 * 60_000,
    async handle(_data, { orm, logger }) {
      const before = new Date(Date.now() - opts.retentionDays * DAY_MS);
      const em = orm.em.fork();
      const signups = await em.nativeDelete(SignupAttempt, { createdAt: { $lt: before } });
      const logins = await em.nativeDelete(LoginAttempt, { createdAt: { $lt: before } });
      const adminReads = await em.nativeDelete(AdminChatRead, { at: { $lt: before } });
      logger.info({ before: before.toISOString(), signups, logins, adminReads }, 'deleted attempts and admin reads past retention');
    },
  });
}
