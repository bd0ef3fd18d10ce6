import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openBytes, openText, sealBytes, sealingKeys, sealText } from './sealing.ts';

const key = () => randomBytes(32).toString('base64');
const keysOf = (value: string | undefined) => sealingKeys({ name: 'FILE_KEYS', value });

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

  it('seals with a random key of this process alone when asked to start without the setting', () => {
    const ephemeral = sealingKeys({ name: 'FILE_KEYS', value: undefined, ephemeral: true });
    expect(ephemeral.current).toBe('ephemeral');
    const sealed = sealBytes(ephemeral, 'a', clear);
    expect(openBytes(ephemeral, 'a', sealed)).toEqual(clear);
    // Another process (or this one restarted) has another key: what it sealed does not open.
    expect(() => openBytes(sealingKeys({ name: 'FILE_KEYS', value: undefined, ephemeral: true }), 'a', sealed)).toThrow('failed authentication');
    // A setting's keys take over: the ephemeral key is not added beside them.
    expect(sealingKeys({ name: 'FILE_KEYS', value: `k1:${key()}`, ephemeral: true }).keys.size).toBe(1);
  });

  it('refuses a malformed setting naming the entry, never echoing a key', () => {
    const short = Buffer.alloc(16).toString('base64');
    expect(() => keysOf(`k1:${short}`)).toThrow(/FILE_KEYS is keyId:base64key.*key "k1" is not 32 bytes of base64$/);
    expect(() => keysOf(`k1:${short}`)).not.toThrow(short);
    expect(() => keysOf(`bad id:${key()}`)).toThrow('entry 1 has no valid key id');
    expect(() => keysOf(`ephemeral:${key()}`)).toThrow('entry 1 may not use the key id "ephemeral"');
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

  it('needs a key in the setting unless an ephemeral one is asked for', () => {
    expect(() => sealingKeys({ name: 'BANK_KEYS', value: ' ' })).toThrow(/^BANK_KEYS is keyId:base64key.*; it is empty$/);
  });
});
