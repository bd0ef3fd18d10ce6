/**
 * Sign-in with Google: an OpenID Connect authorization-code flow with state, nonce and PKCE (S256).
 *
 * GET /auth/google starts it: the flow's secrets (state, nonce, PKCE verifier, and the register page's referral
 * code) go into a short-lived cookie sealed with OAUTH_COOKIE_SECRET (a JWE, A256GCM: encrypted and authenticated),
 * and the browser is sent to the provider. GET /auth/google/callback opens the cookie, checks the state, exchanges the
 * code with the verifier at the token endpoint (client_secret_basic) and verifies the ID token against the issuer's
 * JWKS (signature, issuer, audience, expiry, nonce). Endpoints come from the issuer's discovery document.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EncryptJWT, createRemoteJWKSet, jwtDecrypt, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { GoogleConfig } from './config.ts';

export const OAUTH_COOKIE = 'puente_oauth';
/** The browser-side path of the Google routes (the gateway strips /api): the cookie goes only there. */
export const OAUTH_COOKIE_PATH = '/api/auth/google';
export const OAUTH_COOKIE_TTL_SECONDS = 600;

export interface OidcFlow { state: string; nonce: string; codeVerifier: string; referralCode: string | null }

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

const random = () => randomBytes(32).toString('base64url');

export function newFlow(referralCode: string | null): OidcFlow {
  return { state: random(), nonce: random(), codeVerifier: random(), referralCode };
}

export const codeChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

const FlowClaims = z.object({
  state: z.string().min(1), nonce: z.string().min(1), codeVerifier: z.string().min(43), referralCode: z.string().nullable(),
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

const Discovery = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});
type Discovery = z.infer<typeof Discovery>;

const TokenResponse = z.object({ id_token: z.string().min(1) });

const IdTokenClaims = z.object({
  sub: z.string().min(1),
  nonce: z.string().optional(),
  email: z.string().optional(),
  // Google sends a boolean; some providers send "true".
  email_verified: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

/** A failure of the flow; `reason` is what /login-failed?reason= shows, `detail` is for the log only. */
export class GoogleFlowError extends Error {
  override name = 'GoogleFlowError';
  readonly reason: 'google_failed' | 'google_email_unverified';
  constructor(reason: GoogleFlowError['reason'], detail: string) {
    super(detail);
    this.reason = reason;
  }
}

const TIMEOUT_MS = 10_000;

export function googleClient(config: GoogleConfig) {
  let discovery: Promise<{ doc: Discovery; jwks: JWTVerifyGetKey }> | undefined;

  /** The issuer's endpoints, fetched once (again after a failure). */
  function discover() {
    discovery ??= (async () => {
      const res = await fetch(`${config.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!res.ok) throw new Error(`discovery answered ${res.status}`);
      const doc = Discovery.parse(await res.json());
      return { doc, jwks: createRemoteJWKSet(new URL(doc.jwks_uri)) };
    })();
    discovery.catch(() => { discovery = undefined; });
    return discovery;
  }

  /** Google's older ID tokens name the issuer without the scheme. */
  const issuers = (doc: Discovery) => (doc.issuer === 'https://accounts.google.com' ? [doc.issuer, 'accounts.google.com'] : [doc.issuer]);

  return {
    async authorizationUrl(flow: OidcFlow): Promise<string> {
      const { doc } = await discover();
      const url = new URL(doc.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: config.clientId,
        redirect_uri: config.redirectUri,
        scope: 'openid email profile',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: codeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
        prompt: 'select_account',
      }).toString();
      return url.toString();
    },

    /** Exchanges the code (with the PKCE verifier) and returns the verified ID token's identity. */
    async identify(code: string, flow: OidcFlow): Promise<GoogleIdentity> {
      let doc: Discovery, jwks: JWTVerifyGetKey;
      try {
        ({ doc, jwks } = await discover());
      } catch (err) {
        throw new GoogleFlowError('google_failed', `discovery failed: ${(err as Error).message}`);
      }
      const basic = Buffer.from(`${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`).toString('base64');
      let res: Response;
      try {
        res = await fetch(doc.token_endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
          body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: config.redirectUri, code_verifier: flow.codeVerifier }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        throw new GoogleFlowError('google_failed', `token endpoint unreachable: ${(err as Error).message}`);
      }
      if (!res.ok) throw new GoogleFlowError('google_failed', `token endpoint answered ${res.status}`);
      const tokens = TokenResponse.safeParse(await res.json().catch(() => null));
      if (!tokens.success) throw new GoogleFlowError('google_failed', 'token response without an id_token');
      let claims: z.infer<typeof IdTokenClaims>;
      try {
        const { payload } = await jwtVerify(tokens.data.id_token, jwks, { issuer: issuers(doc), audience: config.clientId, clockTolerance: 30 });
        claims = IdTokenClaims.parse(payload);
      } catch (err) {
        throw new GoogleFlowError('google_failed', `ID token rejected: ${(err as Error).message}`);
      }
      if (claims.nonce !== flow.nonce) throw new GoogleFlowError('google_failed', 'ID token nonce does not match');
      const emailVerified = claims.email_verified === true;
      if (!claims.email || !emailVerified) throw new GoogleFlowError('google_email_unverified', 'no verified email in the ID token');
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
