/**
 * Deletes pending sign-ups and password-reset tokens that have expired, and Google sign-ins too old to count as proof
 * (domain/reauthentication.ts). Pending sign-ups are kept for a day past their expiry so that a late click still hears
 * "expired" rather than "invalid". Scheduled hourly in app.ts.
 */
import { z } from 'zod';
import { defineJob } from '@puente/platform';
import { PendingSignup } from '../domain/pending-signup.ts';
import { PasswordReset } from '../domain/password-reset.ts';
import { purgeOldGoogleSignIns } from '../domain/reauthentication.ts';

export const PURGE_EXPIRED_TOKENS = 'purge-expired-tokens';
export const EXPIRED_SIGNUP_GRACE_MS = 24 * 3600 * 1000;

export const purgeExpiredTokens = defineJob({
  name: PURGE_EXPIRED_TOKENS,
  schema: z.object({}),
  attempts: 3,
  backoffMs: 60_000,
  timeoutMs: 5 * 60_000,
  async handle(_data, { orm, logger }) {
    const now = Date.now();
    const em = orm.em.fork();
    const signups = await em.nativeDelete(PendingSignup, { expiresAt: { $lt: new Date(now - EXPIRED_SIGNUP_GRACE_MS) } });
    const resets = await em.nativeDelete(PasswordReset, { expiresAt: { $lt: new Date(now) } });
    await purgeOldGoogleSignIns(em, new Date(now));
    if (signups + resets > 0) logger.info({ signups, resets }, 'deleted expired sign-up and reset tokens');
  },
});
