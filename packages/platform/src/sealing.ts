/**
 * Bytes sealed at rest (a file a user uploaded), as accounts seals bank details and identity TOTP secrets:
 * AES-256-GCM with a random 96-bit IV per value, bound to its owner through the GCM additional data (`aad`: a value
 * copied to another owner does not open). A sealed value is `{keyId}:` in ASCII, then the IV (12 bytes), the tag
 * (16 bytes) and the ciphertext, so the key that sealed it travels with it.
 *
 * The keys come from a setting `keyId:base64key[,keyId2:base64key2...]` (the first seals, every listed key opens,
 * so keys rotate by adding the new one first); after them, a key derived from a fallback secret every replica has
 * (INTERNAL_TOKEN_SECRET: sealing works without the setting, and keeps opening once it is set); without either, a
 * random key for this process (tests). Errors never carry a key or the bytes.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SealingKeys {
  /** The key id that seals new values. */
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

const KEY_ID = /^[A-Za-z0-9.-]{1,32}$/;
/** The id of the key derived from the fallback secret. */
const DERIVED = 'derived';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealingKeysSetting {
  /** The setting's name, for its error messages (e.g. ATTACHMENT_ENCRYPTION_KEYS). */
  name: string;
  value: string | undefined;
  /** What these keys seal: the derived key differs per purpose. */
  purpose: string;
  /** A secret every replica has, to derive a key from (INTERNAL_TOKEN_SECRET). */
  fallbackSecret?: string | undefined;
}

/** The keys from the setting, then the derived (or random) one; throws an Error naming what is wrong, never a key. */
export function sealingKeys({ name, value, purpose, fallbackSecret }: SealingKeysSetting): SealingKeys {
  const hint = `${name} is keyId:base64key[,keyId2:base64key2...] with 32-byte keys (e.g. k1:$(openssl rand -base64 32)); the first key seals, all open`;
  const keys = new Map<string, Buffer>();
  for (const [i, entry] of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean).entries()) {
    const colon = entry.indexOf(':');
    const keyId = colon > 0 ? entry.slice(0, colon) : '';
    const encoded = colon > 0 ? entry.slice(colon + 1) : '';
    if (!KEY_ID.test(keyId) || keyId === DERIVED) throw new Error(`${hint}; entry ${i + 1} has no valid key id (1-32 letters, digits, dots or dashes; not "${DERIVED}")`);
    if (keys.has(keyId)) throw new Error(`${hint}; key id "${keyId}" is listed twice`);
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) throw new Error(`${hint}; key "${keyId}" is not 32 bytes of base64`);
    keys.set(keyId, key);
  }
  keys.set(DERIVED, fallbackSecret ? createHash('sha256').update(`${purpose}:${fallbackSecret}`).digest() : randomBytes(32));
  return { current: keys.keys().next().value!, keys };
}

/** Seals `clear` with the current key, bound to `aad` (who or what owns it). */
export function sealBytes(keys: SealingKeys, aad: string, clear: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.keys.get(keys.current)!, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(clear), cipher.final()]);
  return Buffer.concat([Buffer.from(`${keys.current}:`, 'ascii'), iv, cipher.getAuthTag(), ciphertext]);
}

/** Opens what sealBytes sealed for the same `aad`; throws when the key is unknown or the value not this owner's. */
export function openBytes(keys: SealingKeys, aad: string, sealed: Buffer): Buffer {
  const colon = sealed.subarray(0, 33).indexOf(':');
  const keyId = colon > 0 ? sealed.subarray(0, colon).toString('ascii') : '';
  const key = keys.keys.get(keyId);
  if (!key) throw new Error(colon > 0 ? `a value is sealed with key "${keyId}", which is not listed` : 'a stored value is not sealed');
  const iv = sealed.subarray(colon + 1, colon + 1 + IV_BYTES);
  const tag = sealed.subarray(colon + 1 + IV_BYTES, colon + 1 + IV_BYTES + TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(colon + 1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new Error('a sealed value failed authentication (wrong key, or not this owner\'s value)');
  }
}
