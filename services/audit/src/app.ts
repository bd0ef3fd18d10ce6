/**
 * Audit: sign-up and login attempts for the admin monitoring view, and admins' reads of chats outside an open dispute.
 * Owns schema `audit`. Consumes identity's attempt events and the exchange's admin reads, answers the /admin routes
 * (admins only: the lists, their stats and CSV exports, the attempts per day, the admin reads), the signed-in user's
 * own login history, deletes attempts past retention; answers identity
 * with a user's attempts for their data download, and anonymises them when they delete their account.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defineService } from '@puente/platform';
import { LoginAttemptSchema, SignupAttemptSchema } from './domain/attempts.ts';
import { AdminChatReadSchema } from './domain/admin-reads.ts';
import { adminRoutes } from './routes/admin.ts';
import { adminReadRoutes } from './routes/admin-reads.ts';
import { exportRoutes } from './routes/export.ts';
import { personalDataRoutes } from './routes/personal-data.ts';
import { loginHistoryRoutes } from './routes/login-history.ts';
import { consumers } from './events/consumers.ts';
import { PURGE_OLD_ATTEMPTS, purgeOldAttempts } from './jobs/purge-old-attempts.ts';

export const AuditSettings = z.object({
  AUDIT_RETENTION_DAYS: z.coerce.number({ error: 'AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more' })
    .int('AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more')
    .min(1, 'AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more')
    .default(365),
});
export type AuditSettings = z.infer<typeof AuditSettings>;

const DAILY_MS = 24 * 3600 * 1000;

export function auditService(settings: AuditSettings) {
  return defineService({
    name: 'audit',
    entities: [SignupAttemptSchema, LoginAttemptSchema, AdminChatReadSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    jobs: [purgeOldAttempts({ retentionDays: settings.AUDIT_RETENTION_DAYS })],
    schedules: [{ job: PURGE_OLD_ATTEMPTS, everyMs: DAILY_MS, schedulerId: PURGE_OLD_ATTEMPTS }],
    async routes(app) {
      await app.register(adminRoutes);
      await app.register(adminReadRoutes);
      await app.register(exportRoutes);
      await app.register(personalDataRoutes);
      await app.register(loginHistoryRoutes);
    },
  });
}
