/**
 * A local OpenID Connect provider for tests, speaking the real protocol: discovery, an authorization endpoint that
 * signs in whoever the test chose and redirects back with a code, a token endpoint that checks the client
 * credentials, the redirect URI and the PKCE verifier before returning an RS256 ID token, and its JWKS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWTPayload } from 'jose';

export interface FakeGoogleUser {
  sub: string;
  email: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  picture?: string;
}

interface IssuedCode { user: FakeGoogleUser; nonce: string | null; challenge: string; redirectUri: string; clientId: string; used: boolean }

export interface FakeOidcProvider {
  issuer: string;
  /** Who signs in at the authorization endpoint next (null: the user cancels, error=access_denied). */
  signInAs(user: FakeGoogleUser | null): void;
  /** Claims to put over the next ID tokens (e.g. another audience), to test their checks. */
  overrideClaims(claims: JWTPayload): void;
  /** Signs the next ID tokens with a key that is not in the JWKS (same kid), to test the signature check. */
  forgeSignatures(forge: boolean): void;
  /** Plays the browser at the provider: follows an authorization URL and returns where the provider sends it back. */
  authorize(authorizationUrl: string): Promise<URL>;
  /** Requests the token endpoint answered, and how many it refused. */
  readonly tokenRequests: { ok: number; refused: number };
  stop(): Promise<void>;
}

const b64url = (s: string) => createHash('sha256').update(s).digest('base64url');

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startFakeOidc(client: { clientId: string; clientSecret: string }): Promise<FakeOidcProvider> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const forger = (await generateKeyPair('RS256')).privateKey;
  let forge = false;
  const codes = new Map<string, IssuedCode>();
  let next: FakeGoogleUser | null = null;
  let overrides: JWTPayload = {};
  const tokenRequests = { ok: 0, refused: 0 };
  let issuer = '';

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(res, 200, {
          issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'], id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        });
      }
      if (url.pathname === '/jwks') return json(res, 200, { keys: [jwk] });
      if (url.pathname === '/authorize') {
        const q = url.searchParams;
        const redirectUri = q.get('redirect_uri') ?? '';
        if (q.get('client_id') !== client.clientId || !redirectUri || q.get('response_type') !== 'code'
          || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('scope')?.split(' ').includes('openid')) {
          return json(res, 400, { error: 'invalid_request' });
        }
        const back = new URL(redirectUri);
        back.searchParams.set('state', q.get('state') ?? '');
        if (!next) {
          back.searchParams.set('error', 'access_denied');
        } else {
          const code = randomBytes(16).toString('hex');
          codes.set(code, { user: next, nonce: q.get('nonce'), challenge: q.get('code_challenge')!, redirectUri, clientId: client.clientId, used: false });
          back.searchParams.set('code', code);
        }
        res.writeHead(302, { location: back.toString() }).end();
        return;
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        const body = await form(req);
        const basic = (req.headers.authorization ?? '').replace(/^Basic /, '');
        const [id, secret] = basic ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent) : [body.get('client_id'), body.get('client_secret')];
        const issued = codes.get(body.get('code') ?? '');
        const refuse = (error: string) => { tokenRequests.refused++; json(res, 400, { error }); };
        if (id !== client.clientId || secret !== client.clientSecret) return refuse('invalid_client');
        if (body.get('grant_type') !== 'authorization_code' || !issued || issued.used) return refuse('invalid_grant');
        if (body.get('redirect_uri') !== issued.redirectUri) return refuse('invalid_grant');
        if (b64url(body.get('code_verifier') ?? '') !== issued.challenge) return refuse('invalid_grant');
        issued.used = true;
        const { sub, ...profile } = issued.user;
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({
          iss: issuer, aud: issued.clientId, sub, iat: now, exp: now + 300,
          ...profile, ...(issued.nonce ? { nonce: issued.nonce } : {}), ...overrides,
        }).setProtectedHeader({ alg: 'RS256', kid: jwk.kid }).sign(forge ? forger : privateKey);
        tokenRequests.ok++;
        return json(res, 200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 3600, id_token: idToken });
      }
      json(res, 404, { error: 'not_found' });
    })().catch((err: unknown) => { res.writeHead(500).end(String(err)); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    signInAs: (user) => { next = user; },
    overrideClaims: (claims) => { overrides = claims; },
    forgeSignatures: (on) => { forge = on; },
    async authorize(authorizationUrl) {
      const res = await fetch(authorizationUrl, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`authorization endpoint answered ${res.status}: ${await res.text()}`);
      return new URL(location);
    },
    tokenRequests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
