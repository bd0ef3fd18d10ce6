/**
 * Encryption at rest of bank details (account number, RUT, sort code, IBAN), sealed by the platform (AES-256-GCM,
 * `{keyId}:{iv}:{tag}:{ciphertext}`): the first key of BANK_ENCRYPTION_KEYS seals, every listed key opens, and keys
 * rotate (add the new key first, keep the old ones until the re-encryption job has moved every row, then drop them).
 *
 * Each value is bound to its owner and field (`{field}:{userId}`): a ciphertext copied into another row or column
 * does not open. A match's copy of a party's details (domain/match-snapshot.ts) is bound to that match too
 * (`{field}:{userId}:match:{matchId}`): it opens neither as the live account nor as another match's copy.
 */
import { openText, sealingKeys, sealText, type SealingKeys } from '@puente/platform';

/** Parses BANK_ENCRYPTION_KEYS, which must list a key; throws an Error naming what is wrong (never echoing a key). */
export const parseEncryptionKeys = (value: string): SealingKeys => sealingKeys({ name: 'BANK_ENCRYPTION_KEYS', value });

/** The fields sealed at rest. */
export type SealedField = 'accountNumber' | 'rut' | 'sortCode' | 'iban';

export interface BankCipher {
  readonly currentKeyId: string;
  seal(field: SealedField, userId: number, clear: string): string;
  open(field: SealedField, userId: number, sealed: string): string;
  sealForMatch(field: SealedField, userId: number, matchId: number, clear: string): string;
  openForMatch(field: SealedField, userId: number, matchId: number, sealed: string): string;
}

export function bankCipher(keys: SealingKeys): BankCipher {
  const aad = (field: SealedField, userId: number) => `${field}:${userId}`;
  return {
    currentKeyId: keys.current,
    seal: (field, userId, clear) => sealText(keys, aad(field, userId), clear),
    open: (field, userId, sealed) => openText(keys, aad(field, userId), sealed),
    sealForMatch: (field, userId, matchId, clear) => sealText(keys, `${aad(field, userId)}:match:${matchId}`, clear),
    openForMatch: (field, userId, matchId, sealed) => openText(keys, `${aad(field, userId)}:match:${matchId}`, sealed),
  };
}
