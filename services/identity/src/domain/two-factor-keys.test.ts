import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_TTL_MS, challengeKey, openSecret, sealSecret, secretKeys, signChallenge, verifyChallenge } from './two-factor-keys.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const key = () => randomBytes(32).toString('base64');

describe('sealing TOTP secrets', () => {
  it('seals with the first listed key, never as the secret itself, and opens only for the same user', () => {
    const keys = secretKeys(`t2:${key()},t1:${key()}`, 'internal secret');
    const sealed = sealSecret(keys, 7, SECRET);
    expect(sealed).toMatch(/^t2:[^:]+:[^:]+:[^:]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(openSecret(keys, 7, sealed)).toBe(SECRET);
    expect(() => openSecret(keys, 8, sealed)).toThrow("a sealed value failed authentication (wrong key, or not this owner's value)");
  });

  it('keeps opening what the key derived from INTERNAL_TOKEN_SECRET sealed once TOTP_ENCRYPTION_KEYS is set, and what an older key sealed', () => {
    const old = `t1:${key()}`;
    const derivedOnly = secretKeys(undefined, 'internal secret');
    const sealedByDerived = sealSecret(derivedOnly, 7, SECRET);
    const sealedByOld = sealSecret(secretKeys(old, 'internal secret'), 7, SECRET);
    const rotated = secretKeys(`t2:${key()},${old}`, 'internal secret');
    expect(openSecret(rotated, 7, sealedByDerived)).toBe(SECRET);
    expect(openSecret(rotated, 7, sealedByOld)).toBe(SECRET);
    expect(() => openSecret(secretKeys(`t2:${key()}`, 'internal secret'), 7, sealedByOld)).toThrow('a value is sealed with key "t1", which TOTP_ENCRYPTION_KEYS does not list');
  });

  it('says what is wrong with TOTP_ENCRYPTION_KEYS without echoing a key', () => {
    expect(() => secretKeys('t1:c2hvcnQ=', undefined)).toThrow(/key "t1" is not 32 bytes of base64$/);
    expect(() => secretKeys('nokey', undefined)).toThrow(/entry 1 has no valid key id/);
    const k = key();
    expect(() => secretKeys(`t1:${k},t1:${k}`, undefined)).toThrow(/key id "t1" is listed twice$/);
    const refusal = (() => {
      try {
        secretKeys(`t1:${k},bad id:${k}`, undefined);
        return '';
      } catch (err) {
        return String(err);
      }
    })();
    expect(refusal).toMatch(/entry 2 has no valid key id/);
    expect(refusal).not.toContain(k);
  });
});

describe('the login challenge', () => {
  it('names the user and how they signed in, for 5 minutes', () => {
    const k = challengeKey('internal secret');
    const now = Date.now();
    const challenge = signChallenge(k, 7, 'google', now);
    expect(verifyChallenge(k, challenge, now + CHALLENGE_TTL_MS - 1)).toEqual({ userId: 7, method: 'google' });
    expect(verifyChallenge(k, challenge, now + CHALLENGE_TTL_MS)).toBeNull();
  });

  it('is refused when signed with another key, altered, or malformed', () => {
    const k = challengeKey('internal secret');
    const challenge = signChallenge(k, 7, 'password');
    expect(verifyChallenge(challengeKey('another secret'), challenge)).toBeNull();
    const [body, mac] = challenge.split('.');
    const otherBody = Buffer.from(JSON.stringify({ u: 1, m: 'password', e: Date.now() + 60_000 })).toString('base64url');
    for (const bad of [`${otherBody}.${mac}`, `${body}.${mac}x`, `${body}`, `${challenge}.extra`, '']) expect(verifyChallenge(k, bad)).toBeNull();
    // Every replica derives the same key from the shared secret.
    expect(verifyChallenge(challengeKey('internal secret'), challenge)).toEqual({ userId: 7, method: 'password' });
  });
});
