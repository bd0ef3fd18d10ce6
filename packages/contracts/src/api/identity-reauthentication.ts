/**
 * Proof of the user for what cannot be undone: deleting the account, changing (or, for a Google-only account,
 * setting) the password, turning two-factor sign-in on or off and replacing the recovery codes. A session alone is
 * not enough. An account with a password gives it (`currentPassword`); an account that signs in only with Google gives
 * a code from its authenticator app when two-factor sign-in is on (`totpCode`, or the `code` the two-factor calls
 * already take), else signs in with Google again from the same session, which counts for 5 minutes.
 * Also: the account's sign-in methods (GET /api/auth/sign-in-methods), which say which proof it gives.
 */
import { z } from 'zod';
import { IsoDateTime, passwordText } from './common.ts';
import { IdentityMessages, NewPassword } from './identity.ts';

/** How long a Google sign-in made from the session counts as proof. */
export const GOOGLE_REAUTHENTICATION_MS = 5 * 60_000;

/** The `code` of a refusal for want of proof (403): `message` says which proof to give. */
export const REAUTHENTICATION_REQUIRED = 'reauthentication_required';

export const ReauthenticationMessages = {
  passwordNeeded: 'Enter your current password to confirm.',
  passwordWrong: 'Current password is incorrect',
  codeNeeded: 'Enter the 6-digit code from your authenticator app to confirm.',
  codeFormat: 'Enter the 6-digit code from your authenticator app',
  googleNeeded: 'Sign in with Google again to confirm. It counts for 5 minutes.',
} as const;
const RM = ReauthenticationMessages;

/** Which proof an account gives: its password; else its app's code (two-factor on); else a Google sign-in again. */
export const ReauthenticationMethod = z.enum(['password', 'totp', 'google']);
export type ReauthenticationMethod = z.infer<typeof ReauthenticationMethod>;

/** The current password as typed (never trimmed). */
export const CurrentPassword = passwordText(IdentityMessages.currentPasswordRequired).min(1, IdentityMessages.currentPasswordRequired);

/** A code from the authenticator app: 6 digits, spaces dropped (a recovery code is not proof here). */
export const TotpCode = z.string({ error: RM.codeFormat })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, RM.codeFormat));

/** What a body carries as proof: the password, or the app's code; none for a recent Google sign-in. */
export const ReauthenticationProof = z.object({
  currentPassword: CurrentPassword.optional(),
  totpCode: TotpCode.optional(),
});
export type ReauthenticationProof = z.infer<typeof ReauthenticationProof>;

/**
 * POST /api/auth/change-password (signed in): the new password and the proof. A Google-only account sets its first
 * password this way.
 */
export const ChangePasswordRequest = ReauthenticationProof.extend({ newPassword: NewPassword });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/**
 * The actions a Google-only account confirms by signing in with Google again: GET /api/auth/google?reauthenticate=
 * <action> comes back to `/profile?reauthenticated=<action>` (and `&failed=<GoogleLoginFailure>` when it did not
 * confirm), where the web app goes on with it.
 */
export const ReauthenticatedAction = z.enum(['delete-account', 'change-password', 'two-factor-on']);
export type ReauthenticatedAction = z.infer<typeof ReauthenticatedAction>;

/** GET /api/auth/sign-in-methods: how the signed-in user signs in, and which proof they give. */
export const SignInMethods = z.object({
  password: z.boolean(),
  google: z.object({ linked: z.boolean(), linkedAt: IsoDateTime.nullable() }),
  twoFactor: z.boolean(),
  reauthentication: ReauthenticationMethod,
  /** Until when this session's last Google sign-in counts as proof; null when there is none that counts. */
  googleSignInValidUntil: IsoDateTime.nullable(),
});
export type SignInMethods = z.infer<typeof SignInMethods>;

/** Refusals of the sign-in methods' own calls. */
export const SignInMethodMessages = {
  googleNotLinked: 'No Google account is linked to your account.',
  passwordNeededToUnlink: 'Set a password before you remove Google sign-in: without one you could no longer sign in. Use Set Password on your profile.',
} as const;
