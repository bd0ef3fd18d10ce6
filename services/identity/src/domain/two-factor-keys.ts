/**
 * The keys of two-factor sign-in: the one that seals TOTP secrets at rest, and the one that signs the login's
 * challenge (the proof, between the password step and the code step, that the password was right).
 *
 * Secrets are sealed by the platform (AES-256-GCM, as accounts seals bank details), bound to their user, so a value
 * copied into another row does not open. The keys come from TOTP_ENCRYPTION_KEYS (`keyId:base64key,...`, the first
 * seals, all open; required in production); without it, a random key for this process (tests). The challenge is
 * signed with LOGIN_CHALLENGE_SECRET, a key of its own: whoever could forge one would skip the password step.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { openText, sealingKeys, sealText, type SealingKeys } from '@puente/platform';

/** The sealing keys from the settings; throws an Error naming what is wrong (never echoing key material). */
export const secretKeys = (encryptionKeys: string | undefined): SealingKeys =>
  sealingKeys({ name: 'TOTP_ENCRYPTION_KEYS', value: encryptionKeys, ephemeral: true });

const aad = (userId: number) => `totp:${userId}`;

export const sealSecret = (keys: SealingKeys, userId: number, secret: string): string => sealText(keys, aad(userId), secret);

export const openSecret = (keys: SealingKeys, userId: number, sealed: string): string => openText(keys, aad(userId), sealed);

/** How long the login's second step may wait after the password. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The challenge's signing key: from LOGIN_CHALLENGE_SECRET (any replica checks it), else random (tests). */
export const challengeKey = (secret: string | undefined): Buffer =>
  secret ? createHash('sha256').update(secret).digest() : randomBytes(32);

/** How the first step checked who it was: the attempt the second step records says so. */
export type ChallengeMethod = 'password' | 'google';

/** `{userId, method, expires}` as base64url JSON, then its HMAC-SHA256. */
export function signChallenge(key: Buffer, userId: number, method: ChallengeMethod, nowMs = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ u: userId, m: method, e: nowMs + CHALLENGE_TTL_MS })).toString('base64url');
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The user a challenge was signed for, or null when it is forged, damaged or expired. */
export function verifyChallenge(key: Buffer, challenge: string, nowMs = Date.now()): { userId: number; method: ChallengeMethod } | null {
  const [body = '', mac = '', ...rest] = challenge.split('.');
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claim = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { u?: unknown; m?: unknown; e?: unknown };
    if (typeof claim.u !== 'number' || typeof claim.e !== 'number' || claim.e <= nowMs) return null;
    return { userId: claim.u, method: claim.m === 'google' ? 'google' : 'password' };
  } catch {
    return null;
  }
}
