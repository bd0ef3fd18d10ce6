/** Identity's settings once resolved (defaults applied, secrets derived): what routes and jobs read. */
import type { MailConfig, SealingKeys } from '@puente/platform';
import type { FailureLimit } from './failure-limit.ts';
import type { CodeLimit } from './two-factor.ts';

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  /** Issuer URL without a trailing slash; discovery at <issuer>/.well-known/openid-configuration. */
  issuer: string;
  /** <PUBLIC_URL>/api/auth/google/callback */
  redirectUri: string;
}

export interface IdentityConfig {
  /**
   * Return the sign-up verification token in the response (the spec's 'Check Your Email' testing aid; off in
   * production). Never a password-reset token: that one would let anyone take over an account.
   */
  exposeVerificationToken: boolean;
  /** How the token emails go out: SMTP, or .eml files in a folder. */
  mail: MailConfig;
  /** The app's public origin, without a trailing slash: links in emails, the Google redirect URI. */
  publicUrl: string;
  /** Google sign-in, or null when GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET are not set. */
  google: GoogleConfig | null;
  /** 32-byte key sealing the short-lived Google sign-in cookie (state, PKCE verifier, nonce, referral code). */
  oauthCookieKey: Uint8Array;
  /** Wrong passwords at login per account and window, from any caller: LOGIN_ACCOUNT_LIMIT. */
  loginAccountLimit: FailureLimit;
  /** Seal and open the ID documents of verification requests at rest: ID_DOCUMENT_KEYS, a key ring of its own. */
  idDocumentKeys: SealingKeys;
  twoFactor: {
    /** Seal and open TOTP secrets at rest. */
    secretKeys: SealingKeys;
    /** Signs the login's challenge between the password and the code. */
    challengeKey: Buffer;
    /** Wrong codes (and wrong passwords when turning it on or off) per user and window: TWO_FACTOR_CODE_LIMIT. */
    codeLimit: CodeLimit;
  };
}
