/**
 * A Google account waiting to be linked to an existing account (contracts: identity-google.ts). A Google sign-in with
 * the email of an account that has no Google account linked links nothing by itself: whoever controls a Google
 * account with that address (a recycled address, a workspace admin) is not thereby the account's owner. The callback
 * seals what it learnt — the user, the Google subject, the email — in a short-lived cookie (a JWE under
 * OAUTH_COOKIE_SECRET, HttpOnly, SameSite=Strict, path /api/auth/google, 10 minutes; never in a URL), and the
 * account's password (and code, two-factor on) given once on /link-google makes the link.
 */
import { EncryptJWT, jwtDecrypt } from 'jose';
import { z } from 'zod';
import { OAUTH_COOKIE_PATH } from './google.ts';

export const GOOGLE_LINK_COOKIE = 'puente_google_link';
export const GOOGLE_LINK_TTL_SECONDS = 600;

export const googleLinkCookieOptions = (secure: boolean) => ({
  path: OAUTH_COOKIE_PATH, httpOnly: true, sameSite: 'strict' as const, secure,
});

export interface PendingLink { userId: number; subject: string; email: string }

const LinkClaims = z.object({ userId: z.number().int().positive(), subject: z.string().min(1), email: z.string().min(1), purpose: z.literal('google-link') });

export async function sealPendingLink(key: Uint8Array, link: PendingLink): Promise<string> {
  // `purpose` keeps a sign-in flow's cookie, sealed with the same key, from passing for a pending link.
  return new EncryptJWT({ ...link, purpose: 'google-link' }).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt().setExpirationTime(`${GOOGLE_LINK_TTL_SECONDS}s`).encrypt(key);
}

/** The pending link sealed in the cookie, or null when it is missing, tampered with or expired. */
export async function openPendingLink(key: Uint8Array, sealed: string | undefined): Promise<PendingLink | null> {
  if (!sealed) return null;
  try {
    const { payload } = await jwtDecrypt(sealed, key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    const parsed = LinkClaims.safeParse(payload);
    return parsed.success ? { userId: parsed.data.userId, subject: parsed.data.subject, email: parsed.data.email } : null;
  } catch {
    return null;
  }
}
