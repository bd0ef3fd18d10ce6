/**
 * The keys of two-factor sign-in: the one that seals TOTP secrets at rest, and the one that signs the login's
 * challenge (the proof, between the password step and the code step, that the password was right).
 *
 * Secrets are sealed with AES-256-GCM as accounts seals bank details: `{keyId}:{iv}:{tag}:{ciphertext}` (base64), bound
 * to their user through the additional data, so a value copied into another row does not open. The keys come from
 * TOTP_ENCRYPTION_KEYS (`keyId:base64key,...`, the first seals, all open); without it, from a key derived from
 * INTERNAL_TOKEN_SECRET (which every identity replica has; it keeps opening after TOTP_ENCRYPTION_KEYS is set);
 * without either, a random key for this process (tests). Errors never carry a secret or a key.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface SecretKeys {
  /** The key id that seals new secrets. */
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

const KEY_ID = /^[A-Za-z0-9.-]{1,32}$/;
const HINT = 'TOTP_ENCRYPTION_KEYS is keyId:base64key[,keyId2:base64key2...] with 32-byte keys (e.g. t1:$(openssl rand -base64 32))';
/** The id of the key derived from INTERNAL_TOKEN_SECRET. */
const DERIVED = 'internal';

const derive = (purpose: string, secret: string): Buffer => createHash('sha256').update(`${purpose}:${secret}`).digest();

/** The sealing keys from the settings; throws an Error naming what is wrong (never echoing key material). */
export function secretKeys(encryptionKeys: string | undefined, internalTokenSecret: string | undefined): SecretKeys {
  const keys = new Map<string, Buffer>();
  for (const [i, entry] of (encryptionKeys ?? '').split(',').map((s) => s.trim()).filter(Boolean).entries()) {
    const colon = entry.indexOf(':');
    const keyId = colon > 0 ? entry.slice(0, colon) : '';
    const key = Buffer.from(colon > 0 ? entry.slice(colon + 1) : '', 'base64');
    if (!KEY_ID.test(keyId) || keyId === DERIVED) throw new Error(`${HINT}; entry ${i + 1} has no valid key id (1-32 letters, digits, dots or dashes; not "${DERIVED}")`);
    if (keys.has(keyId)) throw new Error(`${HINT}; key id "${keyId}" is listed twice`);
    if (key.length !== 32) throw new Error(`${HINT}; key "${keyId}" is not 32 bytes of base64`);
    keys.set(keyId, key);
  }
  keys.set(DERIVED, internalTokenSecret ? derive('totp-secret', internalTokenSecret) : randomBytes(32));
  return { current: keys.keys().next().value!, keys };
}

const aad = (userId: number) => Buffer.from(`totp:${userId}`, 'utf8');

export function sealSecret(keys: SecretKeys, userId: number, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.keys.get(keys.current)!, iv);
  cipher.setAAD(aad(userId));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [keys.current, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
}

export function openSecret(keys: SecretKeys, userId: number, sealed: string): string {
  const [keyId = '', iv = '', tag = '', ciphertext = ''] = sealed.split(':');
  const key = keys.keys.get(keyId);
  if (!key) throw new Error(`a TOTP secret is sealed with key "${keyId}", which TOTP_ENCRYPTION_KEYS does not list`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAAD(aad(userId));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('a stored TOTP secret failed authentication (wrong key, or not this user\'s value)');
  }
}

/** How long the login's second step may wait after the password. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The challenge's signing key: derived from INTERNAL_TOKEN_SECRET (any replica checks it), else random (tests). */
export const challengeKey = (internalTokenSecret: string | undefined): Buffer =>
  internalTokenSecret ? derive('totp-challenge', internalTokenSecret) : randomBytes(32);

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
