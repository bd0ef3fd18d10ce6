/**
 * Two-factor sign-in of a user: their TOTP secret (sealed, see two-factor-keys.ts), whether it is on (a row with no
 * enabledAt is a setup waiting for its first code), the last step whose code was accepted (a code is good once:
 * a replay within its window is refused), the hashes of the unused recovery codes, and the count of wrong codes in
 * the current window (too many and codes are refused for the rest of it, whatever IP they come from: failure-limit.ts).
 */
import { createHash, randomInt } from 'node:crypto';
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import type { TwoFactorRecord } from '@puente/contracts';
import { failureWait, withFailure, type FailureLimit } from './failure-limit.ts';
import { matchTotp } from './totp.ts';

export const TwoFactorSchema = defineEntity({
  name: 'TwoFactor',
  tableName: 'two_factor',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    /** `{keyId}:{iv}:{tag}:{ciphertext}`, never the secret itself. */
    sealedSecret: p.text(),
    enabledAt: p.datetime().nullable(),
    lastUsedStep: p.bigint('number').nullable(),
    /** SHA-256 (hex) of each recovery code not used yet. */
    recoveryCodeHashes: p.json<string[]>(),
    failedCodes: p.integer().default(0),
    failedSince: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class TwoFactor extends TwoFactorSchema.class {}
TwoFactorSchema.setClass(TwoFactor);

/** Whether the user's sign-ins need a code (a setup not confirmed yet does not count). */
export const twoFactorOn = async (em: EntityManager, userId: number): Promise<boolean> =>
  (await em.count(TwoFactor, { userId, enabledAt: { $ne: null } })) > 0;

/** As the data download shows it: a setup not confirmed yet is not on. */
export function twoFactorRecord(tf: TwoFactor | null): TwoFactorRecord {
  const enabledAt = tf?.enabledAt ?? null;
  return { enabled: Boolean(enabledAt), enabledAt: enabledAt?.toISOString() ?? null, recoveryCodesLeft: enabledAt ? tf!.recoveryCodeHashes.length : 0 };
}

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: a recovery code is read off paper and typed.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const normaliseRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toLowerCase();
export const recoveryCodeHash = (code: string): string => createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');

/** New recovery codes, `abcd-efgh` (about 40 random bits each; they are only ever tried under the code limit). */
export function newRecoveryCodes(): string[] {
  const part = () => Array.from({ length: 4 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`);
}

export type CodeLimit = FailureLimit;

/** How long codes are still refused for (ms), 0 when they may be tried. */
export const codeLimitWait = (tf: TwoFactor, limit: CodeLimit, now: Date): number => failureWait(tf.failedCodes, tf.failedSince, limit, now);

export function countWrongCode(tf: TwoFactor, limit: CodeLimit, now: Date): void {
  const { failures, since } = withFailure(tf.failedCodes, tf.failedSince, limit, now);
  tf.failedCodes = failures;
  tf.failedSince = since;
}

/** Why a code was refused: the failureReason of the attempt and the error's code. */
export type CodeRefusal = 'invalid_totp_code' | 'totp_code_reused';

/**
 * Checks a code and, when it is good, uses it up: a TOTP code's step becomes the last one used, a recovery code's
 * hash is removed. Recovery codes are taken only where `recovery` allows (not when confirming the setup).
 */
export function useCode(tf: TwoFactor, secret: string, code: string, now: Date, recovery: boolean): CodeRefusal | 'totp' | 'recovery' {
  if (/^\d{6}$/.test(code)) {
    const step = matchTotp(secret, code, now.getTime());
    if (step === null) return 'invalid_totp_code';
    if (tf.lastUsedStep !== null && tf.lastUsedStep !== undefined && step <= tf.lastUsedStep) return 'totp_code_reused';
    tf.lastUsedStep = step;
    return 'totp';
  }
  if (!recovery) return 'invalid_totp_code';
  const hash = recoveryCodeHash(code);
  if (!tf.recoveryCodeHashes.includes(hash)) return 'invalid_totp_code';
  tf.recoveryCodeHashes = tf.recoveryCodeHashes.filter((h) => h !== hash);
  return 'recovery';
}
