/**
 * Sign-in with Google: starting it (GET /api/auth/google), why one failed, and linking a Google account to an
 * existing account. A Google sign-in with the email of an account not linked yet links nothing by itself: the
 * callback keeps the pending link in a short-lived sealed cookie and sends the browser to /link-google, where the
 * account's password (and its app's code, with two-factor sign-in on) is asked once; then the link is made, the user
 * is emailed and signed in.
 */
import { z } from 'zod';
import { safeText, ValidationMessages as M, passwordText } from './common.ts';
import { IdentityMessages as IM, Language } from './identity.ts';
import { ReauthenticatedAction } from './identity-reauthentication.ts';
import { TwoFactorCode } from './identity-two-factor.ts';

/**
 * GET /api/auth/google?referralCode=...&language=...: the register page passes its code and the language it shows.
 * `reauthenticate`: a signed-in user signs in with Google again to confirm an action (identity-reauthentication.ts).
 */
export const GoogleLoginQuery = z.object({
  referralCode: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? v : undefined),
    safeText({ invalid: IM.referralCodeInvalidCharacters }).max(64).optional(),
  ),
  language: Language.optional(),
  reauthenticate: ReauthenticatedAction.optional(),
});
export type GoogleLoginQuery = z.infer<typeof GoogleLoginQuery>;

/**
 * Why a Google sign-in ended on /login-failed?reason=<code>, and what the login page shows for each code.
 */
export const GoogleLoginFailures = {
  google_not_configured: 'Sign-in with Google is not available on this server.',
  google_cancelled: 'Google sign-in was cancelled.',
  google_failed: 'Google sign-in failed. Please try again.',
  google_email_unverified: 'Your Google account has no verified email address.',
  referral_required: 'No Puente account uses this Google email. To sign up, open your referral link first.',
  invalid_referral_code: 'Invalid referral code. Please ask a friend for a valid code.',
  /** Signing in with Google again to confirm an action, with a Google account other than the linked one. */
  google_other_account: 'That Google account is not the one linked to your Puente account.',
} as const;
export type GoogleLoginFailure = keyof typeof GoogleLoginFailures;

/** Where the callback sends the browser when a Google account is to be linked to an existing account. */
export const LINK_GOOGLE_PAGE = '/link-google';

/** GET /api/auth/google/link: the pending link the browser holds (its cookie), for the page to show. */
export const PendingGoogleLink = z.object({
  /** The account's email, which the Google account shares. */
  email: z.string(),
  /** Two-factor sign-in is on: the app's code is asked with the password. */
  twoFactor: z.boolean(),
});
export type PendingGoogleLink = z.infer<typeof PendingGoogleLink>;

/** POST /api/auth/google/link: the account's password, and a code (or a recovery code) when two-factor sign-in is on. */
export const GoogleLinkRequest = z.object({
  password: passwordText(M.passwordRequired).min(1, M.passwordRequired),
  code: TwoFactorCode.optional(),
});
export type GoogleLinkRequest = z.infer<typeof GoogleLinkRequest>;

export const GoogleLinkMessages = {
  linked: 'Your Google account is linked. From now on you can sign in with Google.',
  expired: 'Your Google sign-in took too long. Please continue with Google again.',
  passwordWrong: 'Password is incorrect',
} as const;

/** The `code` of a refusal because the pending link is missing or expired (401). */
export const GOOGLE_LINK_EXPIRED = 'google_link_expired';
