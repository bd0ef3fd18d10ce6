/**
 * Encryption at rest of bank details (account number, RUT, sort code, IBAN): AES-256-GCM with a random 96-bit IV per
 * value. A stored value is `{keyId}:{iv}:{tag}:{ciphertext}` (base64), so the key that sealed it travels with it:
 * the first key of BANK_ENCRYPTION_KEYS seals, every listed key opens, and keys can rotate (add the new key first,
 * keep the old ones until the re-encryption job has moved every row, then drop them).
 *
 * Each value is bound to its owner and field through the GCM additional data (`{field}:{userId}`): a ciphertext
 * copied into another row or column does not open. Errors never carry a value or a key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface EncryptionKeys {
  /** The key id that seals new values (the first listed). */
  current: string;
  keys: ReadonlyMap<string, Buffer>;
}

const KEY_ID = /^[A-Za-z0-9.-]{1,32}$/;
const HINT = 'BANK_ENCRYPTION_KEYS is keyId:base64key[,keyId2:base64key2...] with 32-byte keys (e.g. k1:$(openssl rand -base64 32)); the first key encrypts, all decrypt';

/** Parses BANK_ENCRYPTION_KEYS; throws an Error naming what is wrong (never echoing key material). */
export function parseEncryptionKeys(value: string): EncryptionKeys {
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (entries.length === 0) throw new Error(`${HINT}; it is empty`);
  const keys = new Map<string, Buffer>();
  for (const [i, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const keyId = colon > 0 ? entry.slice(0, colon) : '';
    const encoded = colon > 0 ? entry.slice(colon + 1) : '';
    if (!KEY_ID.test(keyId)) throw new Error(`${HINT}; entry ${i + 1} has no valid key id (1-32 letters, digits, dots or dashes before ':')`);
    if (keys.has(keyId)) throw new Error(`${HINT}; key id "${keyId}" is listed twice`);
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) throw new Error(`${HINT}; key "${keyId}" is not 32 bytes of base64`);
    keys.set(keyId, key);
  }
  return { current: [...keys.keys()][0]!, keys };
}

/** The fields sealed at rest. */
export type SealedField = 'accountNumber' | 'rut' | 'sortCode' | 'iban';

export interface BankCipher {
  readonly currentKeyId: string;
  seal(field: SealedField, userId: number, clear: string): string;
  open(field: SealedField, userId: number, sealed: string): string;
  /** The key id a stored value was sealed with. */
  keyIdOf(sealed: string): string;
}

export function bankCipher(keys: EncryptionKeys): BankCipher {
  const aad = (field: SealedField, userId: number) => Buffer.from(`${field}:${userId}`, 'utf8');
  const currentKey = keys.keys.get(keys.current);
  if (!currentKey) throw new Error('the current encryption key is missing');
  return {
    currentKeyId: keys.current,
    seal(field, userId, clear) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', currentKey, iv);
      cipher.setAAD(aad(field, userId));
      const ciphertext = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
      return [keys.current, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(':');
    },
    open(field, userId, sealed) {
      const [keyId = '', iv = '', tag = '', ciphertext = '', ...rest] = sealed.split(':');
      const key = keys.keys.get(keyId);
      if (!key) throw new Error(`a bank ${field} is sealed with key "${keyId}", which BANK_ENCRYPTION_KEYS does not list`);
      if (rest.length > 0 || !iv || !tag) throw new Error(`a stored bank ${field} is not in the keyId:iv:tag:ciphertext form`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
        decipher.setAAD(aad(field, userId));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(`a stored bank ${field} failed authentication (wrong key, or not this row's value)`);
      }
    },
    keyIdOf(sealed) {
      return sealed.slice(0, sealed.indexOf(':'));
    },
  };
}
