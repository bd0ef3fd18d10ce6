import { randomInt } from 'node:crypto';

/** Unambiguous upper-case letters and digits (no 0/O, 1/I). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newReferralCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

export const normaliseReferralCode = (code: string): string => code.trim().toUpperCase();
