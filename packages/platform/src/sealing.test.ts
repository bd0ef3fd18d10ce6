import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openBytes, openText, sealBytes, sealingKeys, sealText } from './sealing.ts';

const key = () => randomBytes(32).toString('base64');
const keysOf = (value: string | undefined, secret?: string) =>
  sealingKeys({ name: 'FILE_KEYS', value, derived: { purpose: 'files', secret } });

describe('sealing bytes at rest', () => {
  const clear = Buffer.from('%PDF-1.4 account 12345678');

  it('seals with the first key, bound to its owner: another owner\'s aad does not open it', () => {
    const keys = keysOf(`k2:${key()}`);
    const sealed = sealBytes(keys, 'match:1', clear);
    expect(sealed.subarray(0, 3).toString()).toBe('k2:');
    expect(sealed.includes(clear)).toBe(false);
    expect(openBytes(keys, 'match:1', sealed)).toEqual(clear);
    expect(() => openBytes(keys, 'match:2', sealed)).toThrow('failed authentication');
  });

  it('opens with every listed key, so keys rotate: a value sealed with the old key opens once a new one is first', () => {
    const old = `k1:${key()}`;
    const sealed = sealBytes(keysOf(old), 'a', clear);
    const rotated = keysOf(`k2:${key()},${old}`);
    expect(rotated.current).toBe('k2');
    expect(openBytes(rotated, 'a', sealed)).toEqual(clear);
    expect(() => openBytes(keysOf(`k2:${key()}`), 'a', sealed)).toThrow('a value is sealed with key "k1", which FILE_KEYS does not list');
  });

  it('derives a key from the fallback secret when none is set, the same in every replica, still opening after keys are set', () => {
    const sealed = sealBytes(keysOf(undefined, 's'.repeat(32)), 'a', clear);
    expect(openBytes(keysOf(undefined, 's'.repeat(32)), 'a', sealed)).toEqual(clear);
    expect(openBytes(keysOf(`k1:${key()}`, 's'.repeat(32)), 'a', sealed)).toEqual(clear);
    expect(() => openBytes(keysOf(undefined, 't'.repeat(32)), 'a', sealed)).toThrow('failed authentication');
  });

  it('refuses a malformed setting naming the entry, never echoing a key', () => {
    const short = Buffer.alloc(16).toString('base64');
    expect(() => keysOf(`k1:${short}`)).toThrow(/FILE_KEYS is keyId:base64key.*key "k1" is not 32 bytes of base64$/);
    expect(() => keysOf(`k1:${short}`)).not.toThrow(short);
    expect(() => keysOf(`bad id:${key()}`)).toThrow('entry 1 has no valid key id');
    expect(() => keysOf(`derived:${key()}`)).toThrow('entry 1 has no valid key id');
    const k = key();
    expect(() => keysOf(`k1:${k},k1:${k}`)).toThrow('key id "k1" is listed twice');
  });
});

describe('sealing text at rest', () => {
  const keys = sealingKeys({ name: 'BANK_KEYS', value: `k1:${key()}` });

  it('round-trips as keyId:iv:tag:ciphertext in base64, with a fresh IV each time', () => {
    const a = sealText(keys, 'rut:7', '12345678-5');
    expect(a).toMatch(/^k1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(sealText(keys, 'rut:7', '12345678-5'));
    expect(a).not.toContain('12345678');
    expect(openText(keys, 'rut:7', a)).toBe('12345678-5');
  });

  it('does not open a value moved to another owner, tampered with, or not in its form', () => {
    const sealed = sealText(keys, 'rut:7', '12345678-5');
    expect(() => openText(keys, 'rut:8', sealed)).toThrow('failed authentication');
    const [kid, iv, tag, ct] = sealed.split(':');
    const flipped = Buffer.from(ct!, 'base64');
    flipped[0]! ^= 1;
    expect(() => openText(keys, 'rut:7', [kid, iv, tag, flipped.toString('base64')].join(':'))).toThrow('failed authentication');
    expect(() => openText(keys, 'rut:7', `${sealed}:extra`)).toThrow('not in the keyId:iv:tag:ciphertext form');
    expect(() => openText(keys, 'rut:7', 'plain')).toThrow('a value is sealed with key "plain", which BANK_KEYS does not list');
  });

  it('needs a key in the setting when no derived key is asked for', () => {
    expect(() => sealingKeys({ name: 'BANK_KEYS', value: ' ' })).toThrow(/^BANK_KEYS is keyId:base64key.*; it is empty$/);
  });

  it('lists a derived key under the id asked for, which the setting may not use', () => {
    const derived = { keyId: 'internal', purpose: 'totp', secret: 's'.repeat(32) };
    const withDerived = sealingKeys({ name: 'TOTP_KEYS', value: undefined, derived });
    expect(withDerived.current).toBe('internal');
    const sealed = sealText(withDerived, 'totp:1', 'secret');
    expect(openText(sealingKeys({ name: 'TOTP_KEYS', value: `t1:${key()}`, derived }), 'totp:1', sealed)).toBe('secret');
    expect(() => sealingKeys({ name: 'TOTP_KEYS', value: `internal:${key()}`, derived })).toThrow('entry 1 has no valid key id');
  });
});
