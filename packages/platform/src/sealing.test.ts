import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openBytes, sealBytes, sealingKeys } from './sealing.ts';

const key = () => randomBytes(32).toString('base64');
const keysOf = (value: string | undefined, fallbackSecret?: string) =>
  sealingKeys({ name: 'FILE_KEYS', value, purpose: 'files', fallbackSecret });

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
    expect(() => openBytes(keysOf(`k2:${key()}`), 'a', sealed)).toThrow('a value is sealed with key "k1", which is not listed');
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
