/**
 * Sign-in with Google: an OpenID Connect authorization-code flow with state, nonce and PKCE (S256), run by
 * openid-client.
 *
 * GET /auth/google starts it: the flow's secrets (state, nonce, PKCE verifier, and the register page's referral
 * code) go into a short-lived cookie sealed with OAUTH_COOKIE_SECRET (a JWE, A256GCM: encrypted and authenticated),
 * and the browser is sent to the provider. GET /auth/google/callback opens the cookie and hands the callback URL to
 * openid-client, which checks the state, exchanges the code with the verifier at the token endpoint
 * (client_secret_basic) and checks the ID token (signature against the issuer's JWKS, issuer, audience, expiry,
 * nonce). Endpoints come from the issuer's discovery document.
 */
import { EncryptJWT, jwtDecrypt } from 'jose';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { Language, ReauthenticatedAction } from '@puente/contracts';
import type { GoogleConfig } from './config.ts';

export const OAUTH_COOKIE = 'puente_oauth';
/** The browser-side path of the Google routes (the gateway strips /api): the cookie goes only there. */
export const OAUTH_COOKIE_PATH = '/api/auth/google';
export const OAUTH_COOKIE_TTL_SECONDS = 600;

/**
 * A signed-in user's Google sign-in again, to confirm an action (domain/reauthentication.ts): the session that asked
 * (its id's SHA-256) and its user, which the callback must come back with.
 */
export interface Reauthenticating { action: ReauthenticatedAction; userId: number; sessionKey: string }

/**
 * The sign-in's secrets, what the register page passed for a new user (the referral code and the language shown), and
 * whether it confirms an action rather than signs in.
 */
export interface OidcFlow {
  state: string; nonce: string; codeVerifier: string; referralCode: string | null; language: Language; reauthenticate: Reauthenticating | null;
}

/** What the provider vouches for about the user. */
export interface GoogleIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
  picture: string | null;
}

export function newFlow(referralCode: string | null, language: Language = 'en', reauthenticate: Reauthenticating | null = null): OidcFlow {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier(), referralCode, language, reauthenticate };
}

const FlowClaims = z.object({
  state: z.string().min(1), nonce: z.string().min(1), codeVerifier: z.string().min(43), referralCode: z.string().nullable(),
  language: Language.default('en'), // a cookie sealed before languages were kept has none
  reauthenticate: z.object({ action: ReauthenticatedAction, userId: z.number().int().positive(), sessionKey: z.string().min(1) }).nullable().default(null),
});

export async function sealFlow(key: Uint8Array, flow: OidcFlow): Promise<string> {
  return new EncryptJWT({ ...flow }).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt().setExpirationTime(`${OAUTH_COOKIE_TTL_SECONDS}s`).encrypt(key);
}

/** The flow sealed in the cookie, or null when it is missing, tampered with or expired. */
export async function openFlow(key: Uint8Array, sealed: string | undefined): Promise<OidcFlow | null> {
  if (!sealed) return null;
  try {
    const { payload } = await jwtDecrypt(sealed, key, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    const parsed = FlowClaims.safeParse(payload);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const IdTokenClaims = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  // Google sends a boolean; some providers send "true".
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

/**
 * A failure of the flow: `reason` is what /login-failed?reason= shows, `failure` what the audit trail records
 * (see the README), the message is for the log only.
 */
export class GoogleFlowError extends Error {
  override name = 'GoogleFlowError';
  readonly reason: 'google_failed' | 'google_cancelled' | 'google_email_unverified';
  readonly failure: string;
  constructor(reason: GoogleFlowError['reason'], failure: string, detail: string) {
    super(detail);
    this.reason = reason;
    this.failure = failure;
  }
}

const TIMEOUT_SECONDS = 10;

/** openid-client refuses plain http; only a provider on this machine (the tests' fake) may use it. */
const isLocalHttp = (issuer: URL) => issuer.protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(issuer.hostname);

/** Names a refused callback for the audit trail; openid-client made the checks, this only says which one failed. */
function refusal(err: unknown, callback: URL, flow: OidcFlow): GoogleFlowError {
  const detail = err instanceof Error ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}` : String(err);
  if (err instanceof oidc.AuthorizationResponseError) {
    return new GoogleFlowError(err.error === 'access_denied' ? 'google_cancelled' : 'google_failed', `provider_error:${err.error.slice(0, 40)}`, detail);
  }
  if (callback.searchParams.get('state') !== flow.state) return new GoogleFlowError('google_failed', 'state_mismatch', detail);
  if (!callback.searchParams.get('code')) return new GoogleFlowError('google_failed', 'missing_code', detail);
  return new GoogleFlowError('google_failed', 'provider_exchange_failed', detail);
}

export function googleClient(config: GoogleConfig) {
  let discovered: Promise<oidc.Configuration> | undefined;

  /** The issuer's configuration, discovered once (again after a failure). */
  function discover(): Promise<oidc.Configuration> {
    const issuer = new URL(config.issuer);
    discovered ??= oidc.discovery(
      issuer, config.clientId, { [oidc.clockTolerance]: 30 }, oidc.ClientSecretBasic(config.clientSecret),
      {
        timeout: TIMEOUT_SECONDS,
        // The ID token comes straight from the token endpoint, but its signature is checked all the same.
        execute: [...(isLocalHttp(issuer) ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
      },
    );
    discovered.catch(() => { discovered = undefined; });
    return discovered;
  }

  return {
    async authorizationUrl(flow: OidcFlow): Promise<string> {
      const configuration = await discover();
      return oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: config.redirectUri,
        scope: 'openid email profile',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        prompt: 'select_account',
      }).href;
    },

    /**
     * Checks the provider's answer (`query`: the callback's query string) against the flow, exchanges the code and
     * returns the verified ID token's identity.
     */
    async identify(query: string, flow: OidcFlow): Promise<GoogleIdentity> {
      let configuration: oidc.Configuration;
      try {
        configuration = await discover();
      } catch (err) {
        throw new GoogleFlowError('google_failed', 'provider_exchange_failed', `discovery failed: ${(err as Error).message}`);
      }
      // The registered redirect URI with the provider's parameters: openid-client sends it back as redirect_uri.
      const callback = new URL(config.redirectUri);
      callback.search = query;
      let claims: z.infer<typeof IdTokenClaims>;
      try {
        const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
          pkceCodeVerifier: flow.codeVerifier, expectedState: flow.state, expectedNonce: flow.nonce,
        });
        claims = IdTokenClaims.parse(tokens.claims());
      } catch (err) {
        throw refusal(err, callback, flow);
      }
      const emailVerified = claims.email_verified === true;
      if (!claims.email || !emailVerified) {
        throw new GoogleFlowError('google_email_unverified', 'google_email_unverified', 'no verified email in the ID token');
      }
      return {
        subject: claims.sub,
        email: claims.email,
        emailVerified,
        givenName: claims.given_name?.trim() || null,
        familyName: claims.family_name?.trim() || null,
        name: claims.name?.trim() || null,
        picture: claims.picture || null,
      };
    },
  };
}
export type GoogleClient = ReturnType<typeof googleClient>;
