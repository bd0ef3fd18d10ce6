/**
 * Two-factor sign-in (TOTP, RFC 6238): setting it up from the profile, and the login's second step.
 * Calls: GET /api/auth/two-factor, POST /api/auth/two-factor/setup, /enable, /disable, /recovery-codes,
 * POST /api/auth/login/two-factor.
 */
import { z } from 'zod';
import { Count, IsoDateTime, passwordText } from './common.ts';

export const TwoFactorMessages = {
  codeRequired: 'Enter the 6-digit code from your authenticator app or a recovery code',
  challengeRequired: 'Sign in with your password first',
  codeRequested: 'Enter the 6-digit code from your authenticator app',
  codeWrong: 'That code is not right. Check your authenticator app and try again.',
  codeReplayed: 'That code has already been used. Wait for the next one.',
  challengeExpired: 'Your sign-in took too long. Please enter your email and password again.',
  passwordWrong: 'Password is incorrect',
  currentPasswordRequired: 'Current password is required',
  alreadyOn: 'Two-factor sign-in is already on',
  notStarted: 'Start the setup again: no two-factor setup is waiting for a code',
  notOn: 'Two-factor sign-in is not on',
  turnedOff: 'Two-factor sign-in is off',
  tooManyCodes: 'Too many wrong codes.',
} as const;
const TM = TwoFactorMessages;

/** The `code` of the login answer that asks for the second step. */
export const TOTP_REQUIRED = 'totp_required';

/**
 * A code as typed: the app's 6 digits, or a recovery code (`abcd-efgh`); spaces are dropped and recovery codes
 * compare without case or dash.
 */
export const TwoFactorCode = z.string({ error: TM.codeRequired })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^(\d{6}|[A-Za-z0-9]{4}-?[A-Za-z0-9]{4})$/, TM.codeRequired));
export type TwoFactorCode = z.infer<typeof TwoFactorCode>;

/**
 * POST /api/auth/login, 200 when the account has two-factor sign-in on: no session yet; the second step sends this
 * challenge (signed, valid 5 minutes) with a code.
 */
export const TwoFactorChallenge = z.object({
  message: z.string(),
  code: z.literal(TOTP_REQUIRED),
  challenge: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

/** POST /api/auth/login/two-factor */
export const TwoFactorLoginRequest = z.object({
  // As signed: base64url, a dot, base64url (anything else could not be one).
  challenge: z.string({ error: TM.challengeRequired }).max(1000, TM.challengeRequired).regex(/^[\w-]+\.[\w-]+$/, TM.challengeRequired),
  code: TwoFactorCode,
});
export type TwoFactorLoginRequest = z.infer<typeof TwoFactorLoginRequest>;

/** GET /api/auth/two-factor: whether it is on, and how many unused recovery codes are left. */
export const TwoFactorStatus = z.object({ enabled: z.boolean(), recoveryCodesLeft: Count });
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/**
 * POST /api/auth/two-factor/setup: a new secret for the user's authenticator app, as text to type and as the
 * otpauth:// URI a QR code carries. It takes effect only once confirmed with a code (enable).
 */
export const TwoFactorSetup = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/**
 * POST /api/auth/two-factor/enable and /disable: a current code, and the current password for an account that has
 * one (a session left open must not be enough to change how the account signs in). An account without a password
 * proves itself with the code when turning it off, and with a Google sign-in again when turning it on.
 */
export const TwoFactorConfirmRequest = z.object({
  currentPassword: passwordText(TM.currentPasswordRequired).min(1, TM.currentPasswordRequired).optional(),
  code: TwoFactorCode,
});
export type TwoFactorConfirmRequest = z.infer<typeof TwoFactorConfirmRequest>;

/** POST /api/auth/two-factor/enable, 200: the recovery codes, shown this once (only their hashes are kept). */
export const TwoFactorEnabled = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoFactorEnabled = z.infer<typeof TwoFactorEnabled>;

/**
 * POST /api/auth/two-factor/recovery-codes: a current code from the authenticator app (not a recovery code: the app
 * is what proves the user still holds the second factor), and the current password for an account that has one.
 * Answers TwoFactorEnabled: new codes, the old ones void.
 */
export const TwoFactorRecoveryCodesRequest = TwoFactorConfirmRequest;
export type TwoFactorRecoveryCodesRequest = z.infer<typeof TwoFactorRecoveryCodesRequest>;

/** Two-factor sign-in in the user's data download: whether it is on, since when, and the recovery codes left. */
export const TwoFactorRecord = TwoFactorStatus.extend({ enabledAt: IsoDateTime.nullable() });
export type TwoFactorRecord = z.infer<typeof TwoFactorRecord>;
