import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@puente/platform';
import { AccountsSettings } from '../app.ts';
import { bankCipher, parseEncryptionKeys } from './encryption.ts';

const key = () => randomBytes(32).toString('base64');

describe('BANK_ENCRYPTION_KEYS', () => {
  it('takes keyId:base64key pairs; the first one encrypts', () => {
    const keys = parseEncryptionKeys(`k2:${key()}, k1:${key()}`);
    expect(keys.current).toBe('k2');
    expect([...keys.keys.keys()]).toEqual(['k2', 'k1']);
  });

  it('stops the service with a message naming the variable, never echoing a key', () => {
    const short = randomBytes(16).toString('base64');
    const cases: [Record<string, string>, string][] = [
      [{}, 'BANK_ENCRYPTION_KEYS is required'],
      [{ BANK_ENCRYPTION_KEYS: '' }, 'it is empty'],
      [{ BANK_ENCRYPTION_KEYS: key() }, 'entry 1 has no valid key id'],
      [{ BANK_ENCRYPTION_KEYS: `k1:${short}` }, 'key "k1" is not 32 bytes of base64'],
      [{ BANK_ENCRYPTION_KEYS: 'k1:not base64 at all!' }, 'key "k1" is not 32 bytes of base64'],
      [{ BANK_ENCRYPTION_KEYS: `k1:${key()},k1:${key()}` }, 'key id "k1" is listed twice'],
    ];
    for (const [env, message] of cases) {
      let error: Error | undefined;
      try { loadConfig(AccountsSettings, env); } catch (err) { error = err as Error; }
      expect(error?.message).toContain('BANK_ENCRYPTION_KEYS');
      expect(error?.message).toContain(message);
      if (env.BANK_ENCRYPTION_KEYS) expect(error?.message).not.toContain(env.BANK_ENCRYPTION_KEYS.split(':').pop());
    }
  });
});

describe('sealing bank details (AES-256-GCM)', () => {
  const cipher = bankCipher(parseEncryptionKeys(`k1:${key()}`));

  it('round-trips, with a fresh IV each time and the key id in front', () => {
    const a = cipher.seal('accountNumber', 7, '12345678');
    const b = cipher.seal('accountNumber', 7, '12345678');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^k1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(a).not.toContain('12345678');
    expect(cipher.open('accountNumber', 7, a)).toBe('12345678');
  });

  it("does not open a value moved to another user or field, or tampered with", () => {
    const sealed = cipher.seal('rut', 7, '12345678-5');
    expect(() => cipher.open('rut', 8, sealed)).toThrow('failed authentication');
    expect(() => cipher.open('iban', 7, sealed)).toThrow('failed authentication');
    const [kid, iv, tag, ct] = sealed.split(':');
    const flipped = Buffer.from(ct!, 'base64');
    flipped[0]! ^= 1;
    expect(() => cipher.open('rut', 7, [kid, iv, tag, flipped.toString('base64')].join(':'))).toThrow('failed authentication');
  });

  it("binds a match's copy to that match: it opens neither as the live account nor as another match's copy", () => {
    const copy = cipher.sealForMatch('accountNumber', 7, 12, '12345678');
    expect(cipher.openForMatch('accountNumber', 7, 12, copy)).toBe('12345678');
    expect(() => cipher.open('accountNumber', 7, copy)).toThrow('failed authentication');
    expect(() => cipher.openForMatch('accountNumber', 7, 13, copy)).toThrow('failed authentication');
    expect(() => cipher.openForMatch('accountNumber', 8, 12, copy)).toThrow('failed authentication');
    expect(() => cipher.openForMatch('accountNumber', 7, 12, cipher.seal('accountNumber', 7, '12345678'))).toThrow('failed authentication');
  });

  it('opens values sealed with an older listed key, and names a key that is not listed', () => {
    const oldKey = key();
    const before = bankCipher(parseEncryptionKeys(`k1:${oldKey}`)).seal('sortCode', 3, '123456');
    const rotated = bankCipher(parseEncryptionKeys(`k2:${key()},k1:${oldKey}`));
    expect(rotated.open('sortCode', 3, before)).toBe('123456');
    expect(rotated.seal('sortCode', 3, '123456')).toMatch(/^k2:/);
    const retired = bankCipher(parseEncryptionKeys(`k2:${key()}`));
    expect(() => retired.open('sortCode', 3, before)).toThrow('sealed with key "k1", which BANK_ENCRYPTION_KEYS does not list');
  });
});
