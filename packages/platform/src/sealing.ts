/**
 * Values sealed at rest — bank details (accounts), TOTP secrets (identity), the files users attach (exchange):
 * AES-256-GCM with a random 96-bit IV per value, bound to its owner through the GCM additional data (`aad`: a value
 * copied to another owner, row or column does not open). The id of the key that sealed a value travels with it:
 * text is `{keyId}:{iv}:{tag}:{ciphertext}` (base64), bytes are `{keyId}:` in ASCII, then the IV (12 bytes), the tag
 * (16 bytes) and the ciphertext.
 *
 * The keys come from a setting `keyId:base64key[,keyId2:base64key2...]`: the first seals, every listed key opens, so
 * keys rotate by adding the new one first. Each purpose has a setting of its own and no key is derived from another
 * secret. Outside production a service may start without its setting (tests, a service started by hand): it then
 * seals with a random key of this process alone, under the id `ephemeral`. Errors never carry a key or a value.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SealingKeys {
  /** The setting the keys come from, named in errors. */
  setting: string;
  /** The key id that seals new values. */
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

export interface SealingKeysSetting {
  /** The setting's name, for its error messages (e.g. BANK_ENCRYPTION_KEYS). */
  name: string;
  value: string | undefined;
  /** Without a key in the setting, seal with a random key of this process (id `ephemeral`) instead of refusing. */
  ephemeral?: boolean;
}

const KEY_ID = /^[A-Za-z0-9.-]{1,32}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const EPHEMERAL = 'ephemeral';

/** The keys from the setting; throws an Error naming what is wrong, never a key. */
export function sealingKeys({ name, value, ephemeral = false }: SealingKeysSetting): SealingKeys {
  const hint = `${name} is keyId:base64key[,keyId2:base64key2...] with 32-byte keys (e.g. k1:$(openssl rand -base64 32)); the first key seals, all open`;
  const keys = new Map<string, Buffer>();
  for (const [i, [keyId, key]] of keyEntries(value, hint).entries()) {
    if (keyId === EPHEMERAL) throw new Error(`${hint}; entry ${i + 1} may not use the key id "${EPHEMERAL}"`);
    if (keys.has(keyId)) throw new Error(`${hint}; key id "${keyId}" is listed twice`);
    keys.set(keyId, key);
  }
  if (keys.size === 0 && ephemeral) keys.set(EPHEMERAL, randomBytes(32));
  const current = keys.keys().next().value;
  if (current === undefined) throw new Error(`${hint}; it is empty`);
  return { setting: name, current, keys };
}

/** The `[keyId, key]` entries of a keys setting, in order; throws naming the entry that is malformed. */
function keyEntries(value: string | undefined, hint: string): [string, Buffer][] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((entry, i) => {
    const colon = entry.indexOf(':');
    const keyId = colon > 0 ? entry.slice(0, colon) : '';
    const encoded = colon > 0 ? entry.slice(colon + 1) : '';
    if (!KEY_ID.test(keyId)) throw new Error(`${hint}; entry ${i + 1} has no valid key id (1-32 letters, digits, dots or dashes before ':')`);
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) throw new Error(`${hint}; key "${keyId}" is not 32 bytes of base64`);
    return [keyId, key];
  });
}

function keyOf(keys: SealingKeys, keyId: string): Buffer {
  const key = keys.keys.get(keyId);
  if (!key) throw new Error(`a value is sealed with key "${keyId}", which ${keys.setting} does not list`);
  return key;
}

function encrypt(keys: SealingKeys, aad: string, clear: Buffer): { iv: Buffer; tag: Buffer; ciphertext: Buffer } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(keys, keys.current), iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(clear), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

function decrypt(key: Buffer, aad: string, iv: Buffer, tag: Buffer, ciphertext: Buffer): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new Error('a sealed value failed authentication (wrong key, or not this owner\'s value)');
  }
}

/** Seals `clear` with the current key, bound to `aad` (who or what owns it). */
export function sealBytes(keys: SealingKeys, aad: string, clear: Buffer): Buffer {
  const { iv, tag, ciphertext } = encrypt(keys, aad, clear);
  return Buffer.concat([Buffer.from(`${keys.current}:`, 'ascii'), iv, tag, ciphertext]);
}

/** Opens what sealBytes sealed for the same `aad`; throws when the key is unknown or the value not this owner's. */
export function openBytes(keys: SealingKeys, aad: string, sealed: Buffer): Buffer {
  const colon = sealed.subarray(0, 33).indexOf(':');
  if (colon <= 0) throw new Error('a stored value is not sealed');
  const key = keyOf(keys, sealed.subarray(0, colon).toString('ascii'));
  const iv = sealed.subarray(colon + 1, colon + 1 + IV_BYTES);
  const tag = sealed.subarray(colon + 1 + IV_BYTES, colon + 1 + IV_BYTES + TAG_BYTES);
  return decrypt(key, aad, iv, tag, sealed.subarray(colon + 1 + IV_BYTES + TAG_BYTES));
}

/** Seals a text with the current key, bound to `aad`, as `{keyId}:{iv}:{tag}:{ciphertext}` (base64). */
export function sealText(keys: SealingKeys, aad: string, clear: string): string {
  const { iv, tag, ciphertext } = encrypt(keys, aad, Buffer.from(clear, 'utf8'));
  return [keys.current, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
}

/** Opens what sealText sealed for the same `aad`; throws when the key is unknown or the value not this owner's. */
export function openText(keys: SealingKeys, aad: string, sealed: string): string {
  const [keyId = '', iv = '', tag = '', ciphertext = '', ...rest] = sealed.split(':');
  const key = keyOf(keys, keyId);
  if (rest.length > 0 || !iv || !tag) throw new Error('a stored value is not in the keyId:iv:tag:ciphertext form');
  return decrypt(key, aad, Buffer.from(iv, 'base64'), Buffer.from(tag, 'base64'), Buffer.from(ciphertext, 'base64')).toString('utf8');
}
