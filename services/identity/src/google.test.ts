import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, TwoFactorSetup } from '@puente/contracts';
import { loadConfig } from '@puente/platform';
import { testAuth, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { IdentitySettings } from './app.ts';
import { User } from './domain/user.ts';
import { Referral } from './domain/referral.ts';
import { totpCode } from './domain/totp.ts';
import { ADMIN, browser, eventsDuring, person, registered, requestSignup, startIdentity } from './testing/helpers.ts';
import { startFakeOidc, type FakeGoogleUser, type FakeOidcProvider } from './testing/fake-oidc.ts';

/** The gateway's side of the test keys: it reads the session actions identity signs for it. */
const gatewayAuth = testAuth('gateway');

const CLIENT = { clientId: 'puente-test-client', clientSecret: 'puente-test-secret' };

/** The cookie the browser would keep from a Set-Cookie header, as a Cookie header value. */
function cookieFrom(setCookie: string | string[] | undefined): string {
  const first = (Array.isArray(setCookie) ? setCookie[0] : setCookie) ?? '';
  return first.split(';')[0]!;
}

describeWithInfra(['postgres'], 'sign-in with Google (against a local OpenID provider)', () => {
  const db = useFreshDatabase('identity_google');
  let svc: TestService;
  let idp: FakeOidcProvider;
  beforeAll(async () => {
    idp = await startFakeOidc(CLIENT);
    svc = await startIdentity(db.url, {
      GOOGLE_CLIENT_ID: CLIENT.clientId, GOOGLE_CLIENT_SECRET: CLIENT.clientSecret, GOOGLE_ISSUER: idp.issuer,
      PUBLIC_URL: 'http://puente.test:8080', OAUTH_COOKIE_SECRET: 'x'.repeat(40),
    });
  });
  afterAll(async () => { await svc?.stop(); await idp?.stop(); });

  /** The browser's round trip: start at /auth/google, sign in at the provider as `user`, come back to the callback. */
  async function roundTrip(
    user: FakeGoogleUser | null, referralCode?: string, tamper?: (back: URL, cookie: string) => { back: URL; cookie: string }, language?: string,
  ) {
    const query = new URLSearchParams({ ...(referralCode ? { referralCode } : {}), ...(language ? { language } : {}) }).toString();
    const start = await svc.app.inject({ method: 'GET', url: `/auth/google${query ? `?${query}` : ''}` });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(String(start.headers.location));
    const setCookie = start.headers['set-cookie'];
    expect(String(setCookie)).toMatch(/^puente_oauth=[^;]+; Max-Age=600; Path=\/api\/auth\/google; HttpOnly; SameSite=Lax$/);
    idp.signInAs(user);
    let back = await idp.authorize(authorize.toString());
    let cookie = cookieFrom(setCookie);
    if (tamper) ({ back, cookie } = tamper(back, cookie));
    expect(back.origin + back.pathname).toBe('http://puente.test:8080/api/auth/google/callback');
    const callback = await svc.app.inject({ method: 'GET', url: `/auth/google/callback${back.search}`, headers: { ...(await browser()), cookie } });
    expect(callback.statusCode).toBe(302);
    return { start, authorize, callback };
  }

  const grantOf = async (res: { headers: Record<string, unknown> }) => gatewayAuth.verifySessionAction(String(res.headers['x-session-action']));

  it('sends the browser to the provider with state, nonce and PKCE (S256)', async () => {
    const start = await svc.app.inject({ method: 'GET', url: '/auth/google' });
    const url = new URL(String(start.headers.location));
    expect(url.origin + url.pathname).toBe(`${idp.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code', client_id: CLIENT.clientId, redirect_uri: 'http://puente.test:8080/api/auth/google/callback',
      scope: 'openid email profile', code_challenge_method: 'S256',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toMatch(/^[\w-]{43}$/);
    // The flow's secrets are sealed in the cookie, not readable in it.
    expect(String(start.headers['set-cookie'])).not.toContain(url.searchParams.get('state'));
  });

  it('links nothing by email alone: the pending link goes in a sealed cookie and the browser to /link-google, with no session', async () => {
    const ana = { ...person('ana'), email: 'ana@gmail.test' };
    const id = await registered(svc, ana);
    const events = await eventsDuring(svc, async () => {
      const { callback } = await roundTrip({ sub: 'google-ana', email: 'Ana@Gmail.test', email_verified: true, given_name: 'Ana' });
      expect(callback.headers.location).toBe('/link-google');
      expect(callback.headers['x-session-action']).toBeUndefined();
      const link = callback.cookies.find((c) => c.name === 'puente_google_link')!;
      expect(link).toMatchObject({ path: '/api/auth/google', httpOnly: true, sameSite: 'Strict', maxAge: 600 });
      // Sealed: neither the Google account nor the user can be read in it.
      expect(link.value).not.toContain('google-ana');
    }, 'identity.login.attempted');
    expect(events).toEqual([]); // /link-google records the attempt, whichever way it ends (google-link.test.ts)
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBeNull();
  });

  it('signs in a user by their linked Google account, even once its email changed, and goes to /dashboard', async () => {
    const abe = { ...person('abe'), email: 'abe@gmail.test' };
    const id = await registered(svc, abe);
    await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { googleSubject: 'google-abe' });
    const events = await eventsDuring(svc, async () => {
      const { callback } = await roundTrip({ sub: 'google-abe', email: 'Abe@Gmail.test', email_verified: true, given_name: 'Abe' });
      expect(callback.headers.location).toBe('/dashboard');
      expect(await grantOf(callback)).toMatchObject({ action: 'grant', userId: id, role: 'user' });
      expect(String(callback.headers['set-cookie'])).toMatch(/^puente_oauth=; Max-Age=0;.*Path=\/api\/auth\/google/);
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([{
      email: 'abe@gmail.test', method: 'google', status: 'success', failureReason: null, ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: false,
      userId: id,
    }]);
    const { callback } = await roundTrip({ sub: 'google-abe', email: 'abe.new@gmail.test', email_verified: true });
    expect(await grantOf(callback)).toMatchObject({ userId: id });
    expect(idp.tokenRequests.refused).toBe(0);
  });

  it('sends a user with two-factor sign-in on to the login page\'s code step, with no session until the code', async () => {
    const eva = { ...person('eva'), email: 'eva@gmail.test' };
    const id = await registered(svc, eva);
    await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { googleSubject: 'google-eva' });
    const headers = await svc.as({ kind: 'user', userId: id, role: 'user', sessionId: 's' });
    const { secret } = TwoFactorSetup.parse((await svc.app.inject({ method: 'POST', url: '/auth/two-factor/setup', headers })).json());
    const on = await svc.app.inject({ method: 'POST', url: '/auth/two-factor/enable', headers, payload: { currentPassword: eva.password, code: totpCode(secret) } });
    expect(on.statusCode).toBe(200);
    const { callback } = await roundTrip({ sub: 'google-eva', email: eva.email, email_verified: true });
    expect(callback.headers['x-session-action']).toBeUndefined();
    const location = new URL(String(callback.headers.location), 'http://puente.test');
    expect(location.pathname).toBe('/login');
    const events = await eventsDuring(svc, async () => {
      const res = await svc.app.inject({
        method: 'POST', url: '/auth/login/two-factor', headers: await browser(),
        payload: { challenge: location.searchParams.get('challenge'), code: totpCode(secret, Date.now() + 30_000) },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await grantOf(res)).toEqual({ action: 'grant', userId: id, role: 'user', twoFactor: true });
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([expect.objectContaining({ email: eva.email, method: 'google', status: 'success', userId: id })]);
  });

  it('creates a new user only with the referral code kept from the register page', async () => {
    const bob: FakeGoogleUser = { sub: 'google-bob', email: 'bob@gmail.test', email_verified: true, given_name: 'Bob', family_name: 'Soto', picture: 'https://img.test/bob.png' };
    const refused = await eventsDuring(svc, async () => {
      const { callback } = await roundTrip(bob);
      expect(callback.headers.location).toBe('/login-failed?reason=referral_required');
      expect(callback.headers['x-session-action']).toBeUndefined();
    });
    expect(refused.map((e) => [e.type, (e.payload as { failureReason: string }).failureReason])).toEqual([['identity.login.attempted', 'referral_required']]);
    const invalid = await eventsDuring(svc, async () => {
      const { callback } = await roundTrip(bob, 'NOT-A-CODE');
      expect(callback.headers.location).toBe('/login-failed?reason=invalid_referral_code');
    });
    expect(invalid.map((e) => [e.type, (e.payload as { failureReason: string }).failureReason])).toEqual([
      ['identity.signup.attempted', 'invalid_referral_code'], ['identity.login.attempted', 'invalid_referral_code'],
    ]);
    expect(await svc.ctx.orm.em.fork().count(User, { email: 'bob@gmail.test' })).toBe(0);

    await requestSignup(svc, { ...person('bob'), email: 'bob@gmail.test' }); // a pending e-mail sign-up is superseded
    let userId = 0;
    const events = await eventsDuring(svc, async () => {
      const { callback } = await roundTrip(bob, ' first-code ');
      expect(callback.headers.location).toBe('/dashboard');
      userId = (await grantOf(callback)).userId;
    });
    const user = await svc.ctx.orm.em.fork().findOneOrFail(User, { id: userId });
    const admin = await svc.ctx.orm.em.fork().findOneOrFail(User, { email: ADMIN.email });
    expect(user).toMatchObject({
      email: 'bob@gmail.test', firstName: 'Bob', lastName: 'Soto', profileImageUrl: 'https://img.test/bob.png',
      emailVerified: true, referredById: admin.id, googleSubject: 'google-bob', role: 'user',
    });
    expect(await svc.ctx.orm.em.fork().count(Referral, { referredId: userId, referrerId: admin.id })).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['identity.user.registered', 'identity.signup.attempted', 'identity.login.attempted']);
    expect(events[1]!.payload).toMatchObject({ email: 'bob@gmail.test', step: 'verify', status: 'completed', referralCode: 'FIRST-CODE' });
    // A Google-only account has no password to log in with.
    const pw = await svc.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'bob@gmail.test', password: person().password } });
    expect(pw.statusCode).toBe(401);
  });

  it('keeps the language the register page showed for a new user', async () => {
    const dora = { sub: 'google-dora', email: 'dora@gmail.test', email_verified: true, given_name: 'Dora' };
    const { callback } = await roundTrip(dora, ADMIN.referralCode, undefined, 'es');
    expect(callback.headers.location).toBe('/dashboard');
    const user = await svc.ctx.orm.em.fork().findOneOrFail(User, { id: (await grantOf(callback)).userId });
    expect(user.language).toBe('es');
    const unknown = await svc.app.inject({ method: 'GET', url: '/auth/google?language=fr' });
    expect(unknown.statusCode).toBe(400);
  });

  it('refuses a forged state, a tampered cookie, a cancelled sign-in, an unverified email, and a token for another client, another nonce or with a forged signature', async () => {
    const cy: FakeGoogleUser = { sub: 'google-cy', email: ADMIN.email, email_verified: true };
    const exchanges = () => idp.tokenRequests.ok + idp.tokenRequests.refused;
    const refusals: Awaited<ReturnType<typeof roundTrip>>[] = [];
    const events = await eventsDuring(svc, async () => {
      const before = exchanges();
      const forged = await roundTrip(cy, undefined, (back, cookie) => { back.searchParams.set('state', 'forged'); return { back, cookie }; });
      const tampered = await roundTrip(cy, undefined, (back, cookie) => ({ back, cookie: `${cookie.slice(0, -4)}AAAA` }));
      const noCookie = await roundTrip(cy, undefined, (back) => ({ back, cookie: '' }));
      expect(exchanges()).toBe(before); // without a matching state the code is never exchanged
      const cancelled = await roundTrip(null);
      expect(cancelled.callback.headers.location).toBe('/login-failed?reason=google_cancelled');
      const unverified = await roundTrip({ ...cy, email_verified: false });
      expect(unverified.callback.headers.location).toBe('/login-failed?reason=google_email_unverified');
      idp.overrideClaims({ aud: 'someone-else' });
      const otherClient = await roundTrip(cy);
      idp.overrideClaims({ nonce: 'replayed' });
      const replayed = await roundTrip(cy);
      idp.overrideClaims({});
      idp.forgeSignatures(true);
      const badSignature = await roundTrip(cy);
      idp.forgeSignatures(false);
      for (const r of [forged, tampered, noCookie, otherClient, replayed, badSignature]) {
        expect(r.callback.headers.location).toBe('/login-failed?reason=google_failed');
      }
      refusals.push(forged, tampered, noCookie, cancelled, unverified, otherClient, replayed, badSignature);
    }, 'identity.login.attempted');
    for (const r of refusals) expect(r.callback.headers['x-session-action']).toBeUndefined();
    expect(await svc.ctx.orm.em.fork().findOneOrFail(User, { email: ADMIN.email })).toMatchObject({ googleSubject: null });
    // The audit trail says which check refused each one.
    expect(events.map((e) => (e.payload as { failureReason: string }).failureReason).sort()).toEqual([
      'google_email_unverified', 'missing_or_expired_state', 'missing_or_expired_state', 'provider_error:access_denied',
      'provider_exchange_failed', 'provider_exchange_failed', 'provider_exchange_failed', 'state_mismatch',
    ]);
  });

  it('answers 400 to a referral code the contract refuses, and records the attempt', async () => {
    const events = await eventsDuring(svc, async () => {
      const res = await svc.app.inject({ method: 'GET', url: `/auth/google?referralCode=${'A'.repeat(65)}`, headers: await browser() });
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.parse(res.json()).code).toBe('validation_failed');
      expect(res.headers['set-cookie']).toBeUndefined();
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([{
      email: '', method: 'google', status: 'failed', failureReason: 'validation', ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: false,
    }]);
  });
});

describeWithInfra(['postgres'], 'sign-in with Google when not configured', () => {
  const db = useFreshDatabase('identity_google_off');
  let svc: TestService;
  // Empty variables count as unset.
  beforeAll(async () => { svc = await startIdentity(db.url, loadConfig(IdentitySettings, { GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: ' ' })); });
  afterAll(async () => { await svc?.stop(); });

  it('redirects to /login-failed with a reason the login page shows, and records the attempt', async () => {
    const events = await eventsDuring(svc, async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/auth/google?referralCode=FIRST-CODE' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/login-failed?reason=google_not_configured');
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([expect.objectContaining({ method: 'google', status: 'failed', failureReason: 'google_not_configured' })]);
  });
});
