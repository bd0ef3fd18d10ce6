/**
 * A browser's Google sign-in against identity and the local OpenID provider (fake-oidc.ts): start at /auth/google,
 * sign in at the provider, come back to the callback with the flow's cookie, as the tests of re-authentication and
 * of linking need it (the sign-in tests keep their own, to tamper with each step).
 */
import type { LightMyRequestResponse } from 'fastify';
import { testAuth, type TestService } from '@puente/platform/testing';
import { browser } from './helpers.ts';
import type { FakeGoogleUser, FakeOidcProvider } from './fake-oidc.ts';

export const GOOGLE_CLIENT = { clientId: 'puente-test-client', clientSecret: 'puente-test-secret' };

/** Identity's settings for Google sign-in against `idp`. */
export const googleSettings = (idp: FakeOidcProvider) => ({
  GOOGLE_CLIENT_ID: GOOGLE_CLIENT.clientId, GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT.clientSecret, GOOGLE_ISSUER: idp.issuer,
  PUBLIC_URL: 'http://puente.test:8080', OAUTH_COOKIE_SECRET: 'x'.repeat(40),
});

/** The cookies a browser would keep from a response's Set-Cookie headers, as `name=value` pairs by name. */
export function cookiesFrom(res: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(res.cookies.map((c) => [c.name, `${c.name}=${c.value}`]));
}

export interface GoogleTrip {
  /** The query of /auth/google (referralCode, language, reauthenticate). */
  query?: Record<string, string>;
  /** Headers of both requests: the signed-in caller's internal token, for one. */
  headers?: Record<string, string>;
  /** Headers of the callback instead (another session coming back). */
  callbackHeaders?: Record<string, string>;
}

/** The answers to the start and, when it went to the provider, to the callback. */
export function googleBrowser(svc: TestService, idp: FakeOidcProvider) {
  return async function signInWithGoogle(user: FakeGoogleUser | null, trip: GoogleTrip = {}) {
    const query = new URLSearchParams(trip.query ?? {}).toString();
    const start = await svc.app.inject({ method: 'GET', url: `/auth/google${query ? `?${query}` : ''}`, headers: { ...(await browser()), ...trip.headers } });
    const location = String(start.headers.location ?? '');
    if (start.statusCode !== 302 || !location.startsWith(idp.issuer)) return { start, callback: null };
    idp.signInAs(user);
    const back = await idp.authorize(location);
    const cookie = cookiesFrom(start).puente_oauth ?? '';
    const callback = await svc.app.inject({
      method: 'GET', url: `/auth/google/callback${back.search}`, headers: { ...(await browser()), ...(trip.callbackHeaders ?? trip.headers), cookie },
    });
    return { start, callback };
  };
}

/** The gateway's side of the test keys: the session action identity signed on an answer, if any. */
const gatewayAuth = testAuth('gateway');
export const sessionActionOf = async (res: LightMyRequestResponse) =>
  res.headers['x-session-action'] === undefined ? undefined : gatewayAuth.verifySessionAction(String(res.headers['x-session-action']));
