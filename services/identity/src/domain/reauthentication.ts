/**
 * Proof of the user for what cannot be undone (contracts: identity-reauthentication.ts). Which proof an account gives
 * follows from how it signs in: its password; without one, its app's code when two-factor sign-in is on (Google alone
 * does not vouch for the second factor); else a Google sign-in again.
 *
 * That Google sign-in is kept per session, not per user: the session that asked for it (the gateway names it to
 * identity) is the one it proves, so a stolen session gains nothing from its owner signing in elsewhere. Only the
 * session id's SHA-256 is stored. Rows older than the window are purged hourly, and go with the Google link and the account.
 */
import { createHash } from 'node:crypto';
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { GOOGLE_REAUTHENTICATION_MS, type ReauthenticationMethod } from '@puente/contracts';

export const RecentGoogleSignInSchema = defineEntity({
  name: 'RecentGoogleSignIn',
  tableName: 'recent_google_sign_in',
  properties: {
    /** SHA-256 (base64url) of the gateway's session id. */
    sessionKey: p.string().primary(),
    userId: p.integer().index(),
    signedInAt: p.datetime(),
  },
});
export class RecentGoogleSignIn extends RecentGoogleSignInSchema.class {}
RecentGoogleSignInSchema.setClass(RecentGoogleSignIn);

export const sessionKey = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url');

export function reauthenticationMethod(hasPassword: boolean, twoFactorOn: boolean): ReauthenticationMethod {
  if (hasPassword) return 'password';
  return twoFactorOn ? 'totp' : 'google';
}

/** Records a Google sign-in made from this session (a later one replaces it). */
export async function recordGoogleSignIn(em: EntityManager, sessionId: string, userId: number, at: Date): Promise<void> {
  await em.upsert(RecentGoogleSignIn, { sessionKey: sessionKey(sessionId), userId, signedInAt: at });
}

/** Until when this session's last Google sign-in counts as proof for the user, or null when none counts now. */
export async function googleSignInValidUntil(em: EntityManager, userId: number, sessionId: string | undefined, now: Date): Promise<Date | null> {
  if (!sessionId) return null;
  const row = await em.findOne(RecentGoogleSignIn, { sessionKey: sessionKey(sessionId), userId });
  const until = row ? new Date(row.signedInAt.getTime() + GOOGLE_REAUTHENTICATION_MS) : null;
  return until && until > now ? until : null;
}

/** Deletes the sign-ins too old to count. */
export const purgeOldGoogleSignIns = (em: EntityManager, now: Date): Promise<number> =>
  em.nativeDelete(RecentGoogleSignIn, { signedInAt: { $lt: new Date(now.getTime() - GOOGLE_REAUTHENTICATION_MS) } });
