import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_TTL_MS, challengeKey, openSecret, sealSecret, secretKeys, signChallenge, verifyChallenge } from './two-factor-keys.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const key = () => randomBytes(32).toString('base64');

describe('sealing TOTP secrets', () => {
  it('seals with the first listed key, never as the secret itself, and opens only for the same user', () => {
    const keys = secretKeys(`t2:${key()},t1:${key()}`);
    const sealed = sealSecret(keys, 7, SECRET);
    expect(sealed).toMatch(/^t2:[^:]+:[^:]+:[^:]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(openSecret(keys, 7, sealed)).toBe(SECRET);
    expect(() => openSecret(keys, 8, sealed)).toThrow("a sealed value failed authentication (wrong key, or not this owner's value)");
  });

  it('rotates: a new key listed first seals, and what an older key sealed keeps opening while that key is listed', () => {
    const old = `t1:${key()}`;
    const sealedByOld = sealSecret(secretKeys(old), 7, SECRET);
    const rotated = secretKeys(`t2:${key()},${old}`);
    expect(sealSecret(rotated, 7, SECRET)).toMatch(/^t2:/);
    expect(openSecret(rotated, 7, sealedByOld)).toBe(SECRET);
    expect(() => openSecret(secretKeys(`t2:${key()}`), 7, sealedByOld)).toThrow('a value is sealed with key "t1", which TOTP_ENCRYPTION_KEYS does not list');
  });

  it('seals with a key of this process alone when TOTP_ENCRYPTION_KEYS is unset (outside production)', () => {
    const sealed = sealSecret(secretKeys(undefined), 7, SECRET);
    expect(sealed).toMatch(/^ephemeral:/);
    expect(() => openSecret(secretKeys(undefined), 7, sealed)).toThrow('failed authentication');
  });

  it('says what is wrong with TOTP_ENCRYPTION_KEYS without echoing a key', () => {
    expect(() => secretKeys('t1:c2hvcnQ=')).toThrow(/key "t1" is not 32 bytes of base64$/);
    expect(() => secretKeys('nokey')).toThrow(/entry 1 has no valid key id/);
    const k = key();
    expect(() => secretKeys(`t1:${k},t1:${k}`)).toThrow(/key id "t1" is listed twice$/);
    const refusal = (() => {
      try {
        secretKeys(`t1:${k},bad id:${k}`);
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
    const k = challengeKey('login challenge secret');
    const now = Date.now();
    const challenge = signChallenge(k, 7, 'google', now);
    expect(verifyChallenge(k, challenge, now + CHALLENGE_TTL_MS - 1)).toEqual({ userId: 7, method: 'google' });
    expect(verifyChallenge(k, challenge, now + CHALLENGE_TTL_MS)).toBeNull();
  });

  it('is refused when signed with another key, altered, or malformed', () => {
    const k = challengeKey('login challenge secret');
    const challenge = signChallenge(k, 7, 'password');
    expect(verifyChallenge(challengeKey('another secret'), challenge)).toBeNull();
    const [body, mac] = challenge.split('.');
    const otherBody = Buffer.from(JSON.stringify({ u: 1, m: 'password', e: Date.now() + 60_000 })).toString('base64url');
    for (const bad of [`${otherBody}.${mac}`, `${body}.${mac}x`, `${body}`, `${challenge}.extra`, '']) expect(verifyChallenge(k, bad)).toBeNull();
    // Every replica has the same key from LOGIN_CHALLENGE_SECRET.
    expect(verifyChallenge(challengeKey('login challenge secret'), challenge)).toEqual({ userId: 7, method: 'password' });
  });
});
