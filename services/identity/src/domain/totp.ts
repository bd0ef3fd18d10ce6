/**
 * Time-based one-time passwords as authenticator apps compute them (RFC 6238: HMAC-SHA1, a 30-second step,
 * 6 digits, a base32 secret), with otplib.
 */
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

export const TOTP_STEP_SECONDS = 30;
/** Steps either side of now a code may come from: a phone's clock a little off, a code typed as it turned. */
export const TOTP_WINDOW = 1;
const ISSUER = 'Puente';

/** A new secret: 20 random bytes (RFC 4226 recommends 160 bits), base32. */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The step a moment falls in. */
export const totpStep = (atMs: number): number => Math.floor(atMs / 1000 / TOTP_STEP_SECONDS);

/** The code an app shows at a moment (tests compute codes with it). */
export const totpCode = (secret: string, atMs = Date.now(), digits: 6 | 8 = 6): string =>
  generateSync({ secret, epoch: Math.floor(atMs / 1000), period: TOTP_STEP_SECONDS, digits });

/**
 * The step whose code `code` is, within the window around `atMs`, or null when none matches. The caller refuses a
 * step it has already accepted (a replayed code).
 */
export function matchTotp(secret: string, code: string, atMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const result = verifySync({
    secret, token: code, epoch: Math.floor(atMs / 1000), period: TOTP_STEP_SECONDS, epochTolerance: TOTP_WINDOW * TOTP_STEP_SECONDS,
  });
  return result.valid ? totpStep(atMs) + result.delta : null;
}

/** The otpauth:// URI an authenticator app reads (as a QR code, or typed): issuer, account and the secret. */
export const otpauthUri = (secret: string, account: string): string =>
  generateURI({ issuer: ISSUER, label: account, secret, period: TOTP_STEP_SECONDS });
