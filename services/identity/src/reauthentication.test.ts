/**
 * Proof of the user for what cannot be undone: deleting the account, changing the password, turning two-factor sign-in
 * off (or, for a Google-only account, on) and replacing the recovery codes. A session alone does none of them: an
 * account with a password gives it; a Google-only account gives its app's code (two-factor on) or signs in with Google
 * again from the same session (the local OpenID provider), which counts for 5 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorBody, Message, ReauthenticationMessages as RM, Routes, SignInMethods, TwoFactorEnabled, TwoFactorSetup, servicePath,
} from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { RecentGoogleSignIn, recordGoogleSignIn, sessionKey } from './domain/reauthentication.ts';
import { User } from './domain/user.ts';
import { totpCode } from './domain/totp.ts';
import { ADMIN, browser, as, person, registered, startIdentity } from './testing/helpers.ts';
import { startFakeOidc, type FakeGoogleUser, type FakeOidcProvider } from './testing/fake-oidc.ts';
import { GOOGLE_CLIENT, googleBrowser, googleSettings, sessionActionOf } from './testing/google-browser.ts';
import { startOtherServices, type OtherServices } from './testing/other-services.ts';

const STEP_MS = 30_000;
const MINUTE = 60_000;
/** Each test checks many passwords (scrypt's work each time) and signs in with Google several times. */
const SLOW_MS = 30_000;

describeWithInfra(['postgres'], 're-authentication for what cannot be undone', () => {
  const db = useFreshDatabase('identity_reauthentication');
  let svc: TestService;
  let idp: FakeOidcProvider;
  let others: OtherServices;
  let signInWithGoogle: ReturnType<typeof googleBrowser>;
  beforeAll(async () => {
    idp = await startFakeOidc(GOOGLE_CLIENT);
    others = await startOtherServices(); // exchange: no trade in progress, so a proven deletion goes through
    others.answer('exchange', servicePath(Routes.exchange.tradesInProgress), { status: 200, body: { matchesInProgress: 0 } });
    svc = await startIdentity(db.url, googleSettings(idp), {}, { serviceUrls: others.urls });
    signInWithGoogle = googleBrowser(svc, idp);
  });
  afterAll(async () => { await svc?.stop(); await idp?.stop(); await others?.stop(); });

  const post = async (url: string, payload: object, headers: Record<string, string>) =>
    svc.app.inject({ method: 'POST', url, headers: { ...(await browser()), ...headers }, payload });
  const answer = (res: { statusCode: number; json: () => unknown }) => [res.statusCode, ErrorBody.parse(res.json())] as const;
  const methods = async (headers: Record<string, string>) =>
    SignInMethods.parse((await svc.app.inject({ method: 'GET', url: '/auth/sign-in-methods', headers })).json());

  const needed = (message: string, field?: string) => ({
    message, code: 'reauthentication_required', ...(field ? { errors: [{ field, message }] } : {}),
  });
  const refused = (code: string, message: string, field: string) => ({ message, code, errors: [{ field, message }] });

  /** A new account signed up with Google (no password); the session named `session` is its caller. */
  async function googleOnly(name: string, session = `${name}-session`) {
    const google: FakeGoogleUser = { sub: `google-${name}`, email: `${name}@gmail.test`, email_verified: true, given_name: name };
    const { callback } = await signInWithGoogle(google, { query: { referralCode: ADMIN.referralCode } });
    const grant = await sessionActionOf(callback!);
    if (grant?.action !== 'grant') throw new Error(`no grant: ${callback?.headers.location}`);
    return { id: grant.userId, google, headers: await as(svc, grant.userId, 'user', session) };
  }

  /** Signs in with Google again from the session of `headers`, to confirm `action`: where the browser comes back to. */
  async function confirmWithGoogle(google: FakeGoogleUser | null, headers: Record<string, string>, action = 'delete-account', callbackHeaders?: Record<string, string>) {
    const { start, callback } = await signInWithGoogle(google, { query: { reauthenticate: action }, headers, ...(callbackHeaders ? { callbackHeaders } : {}) });
    expect(callback, String(start.headers.location)).not.toBeNull();
    expect(await sessionActionOf(callback!)).toBeUndefined(); // no new session: the one that asked goes on
    return String(callback!.headers.location);
  }

  async function turnOnTwoFactor(headers: Record<string, string>, proof: object = {}) {
    const { secret } = TwoFactorSetup.parse((await post('/auth/two-factor/setup', {}, headers)).json());
    const on = await post('/auth/two-factor/enable', { ...proof, code: totpCode(secret) }, headers);
    return { on, secret };
  }

  describe('an account with a password', () => {
    it('gives the current password for each action: 403 without it, 401 wrong, and done with it; a Google sign-in does not stand in', async () => {
      const p = person('pia');
      const id = await registered(svc, p);
      const headers = await as(svc, id, 'user', 'pia-session');
      expect(await methods(headers)).toEqual({
        password: true, google: { linked: false, linkedAt: null }, twoFactor: false, reauthentication: 'password', googleSignInValidUntil: null,
      });
      const { on, secret } = await turnOnTwoFactor(headers, { currentPassword: p.password });
      expect(on.statusCode).toBe(200);
      await recordGoogleSignIn(svc.ctx.orm.em.fork(), 'pia-session', id, new Date());
      const code = (steps: number) => totpCode(secret, Date.now() + steps * STEP_MS);

      const actions = [
        { url: '/auth/two-factor/recovery-codes', body: { code: code(1) }, field: 'currentPassword' },
        { url: '/auth/change-password', body: { newPassword: 'a brand new password' }, field: 'currentPassword' },
        { url: '/auth/two-factor/disable', body: { code: code(2) }, field: 'currentPassword' },
        { url: '/users/me/delete', body: {}, field: 'currentPassword' },
      ];
      for (const { url, body, field } of actions) {
        expect({ url, answer: answer(await post(url, body, headers)) }).toEqual({ url, answer: [403, needed(RM.passwordNeeded, field)] });
        expect({ url, answer: answer(await post(url, { ...body, currentPassword: 'not my password' }, headers)) })
          .toEqual({ url, answer: [401, refused('wrong_password', RM.passwordWrong, field)] });
      }
      // Each done with the password (a code is good once: off with one of the new recovery codes).
      const { recoveryCodes } = TwoFactorEnabled.parse((await post(actions[0]!.url, { ...actions[0]!.body, currentPassword: p.password }, headers)).json());
      const changed = await post(actions[1]!.url, { ...actions[1]!.body, currentPassword: p.password }, headers);
      expect(Message.parse(changed.json()).message).toMatch(/^Your password has been changed/);
      expect((await post(actions[2]!.url, { code: recoveryCodes[0], currentPassword: 'a brand new password' }, headers)).statusCode).toBe(200);
      const deleted = await post(actions[3]!.url, { currentPassword: 'a brand new password' }, headers);
      expect(deleted.statusCode, deleted.body).toBe(200);
    }, SLOW_MS);

    it('counts wrong passwords given as proof with the login\'s: past the limit, even the right one is refused with 429', async () => {
      const p = person('quim');
      const id = await registered(svc, p);
      await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { failedLogins: 119, failedLoginsSince: new Date() });
      const headers = await as(svc, id);
      expect((await post('/users/me/delete', { currentPassword: 'guess' }, headers)).statusCode).toBe(401);
      const limited = await post('/users/me/delete', { currentPassword: p.password }, headers);
      expect(limited.statusCode).toBe(429);
      expect(ErrorBody.parse(limited.json()).message).toMatch(/^Too many failed login attempts for this account\. Please try again in \d+ minutes\.$/);
    }, SLOW_MS);
  });

  describe('an account that signs in only with Google', () => {
    it('with two-factor sign-in off: signs in with Google again from the same session, which counts for 5 minutes there alone', async () => {
      const { id, google, headers } = await googleOnly('gail');
      expect(await methods(headers)).toMatchObject({ password: false, google: { linked: true, linkedAt: expect.any(String) }, twoFactor: false, reauthentication: 'google' });
      // The session alone: refused, with what to do.
      expect(answer(await post('/users/me/delete', {}, headers))).toEqual([403, needed(RM.googleNeeded)]);
      expect(answer(await post('/auth/change-password', { newPassword: 'my first password' }, headers))).toEqual([403, needed(RM.googleNeeded)]);
      expect(answer((await turnOnTwoFactor(headers)).on)).toEqual([403, needed(RM.googleNeeded)]);

      expect(await confirmWithGoogle(google, headers, 'change-password')).toBe('/profile?reauthenticated=change-password');
      const { googleSignInValidUntil } = await methods(headers);
      expect(Date.parse(googleSignInValidUntil!) - Date.now()).toBeGreaterThan(4 * MINUTE);
      const row = await svc.ctx.orm.em.fork().findOneOrFail(RecentGoogleSignIn, { userId: id });
      expect(row.sessionKey).toBe(sessionKey('gail-session')); // the session's digest, not its id
      // Another session of hers proves nothing by it.
      const other = await as(svc, id, 'user', 'gail-other-session');
      expect(answer(await post('/users/me/delete', {}, other))).toEqual([403, needed(RM.googleNeeded)]);
      expect((await methods(other)).googleSignInValidUntil).toBeNull();

      // Six minutes on, it no longer counts.
      await svc.ctx.orm.em.fork().nativeUpdate(RecentGoogleSignIn, { userId: id }, { signedInAt: new Date(Date.now() - 6 * MINUTE) });
      expect(answer(await post('/auth/change-password', { newPassword: 'my first password' }, headers))).toEqual([403, needed(RM.googleNeeded)]);
      expect((await methods(headers)).googleSignInValidUntil).toBeNull();

      await confirmWithGoogle(google, headers, 'change-password');
      const set = await post('/auth/change-password', { newPassword: 'my first password' }, headers);
      expect(set.statusCode, set.body).toBe(200);
      expect(await sessionActionOf(set)).toEqual({ action: 'revoke-others', userId: id, keepSessionId: 'gail-session' });
      // Now she has a password, and gives it.
      expect(await methods(headers)).toMatchObject({ password: true, reauthentication: 'password' });
      expect(answer(await post('/users/me/delete', {}, headers))).toEqual([403, needed(RM.passwordNeeded, 'currentPassword')]);
      expect((await post('/users/me/delete', { currentPassword: 'my first password' }, headers)).statusCode).toBe(200);
    }, SLOW_MS);

    it('turns two-factor sign-in on after a Google sign-in again, and deletes the account after another', async () => {
      const { id, google, headers } = await googleOnly('gus');
      await confirmWithGoogle(google, headers, 'two-factor-on');
      const { on, secret } = await turnOnTwoFactor(headers);
      expect(on.statusCode, on.body).toBe(200);
      await svc.ctx.orm.em.fork().nativeUpdate(RecentGoogleSignIn, { userId: id }, { signedInAt: new Date(Date.now() - 6 * MINUTE) });
      // The code is the proof: new recovery codes, then off with one of them.
      const renewed = await post('/auth/two-factor/recovery-codes', { code: totpCode(secret, Date.now() + STEP_MS) }, headers);
      expect(renewed.statusCode, renewed.body).toBe(200);
      const off = await post('/auth/two-factor/disable', { code: TwoFactorEnabled.parse(renewed.json()).recoveryCodes[0] }, headers);
      expect(off.statusCode).toBe(200);
      expect(answer(await post('/users/me/delete', {}, headers))).toEqual([403, needed(RM.googleNeeded)]);
      expect(await confirmWithGoogle(google, headers)).toBe('/profile?reauthenticated=delete-account');
      expect((await post('/users/me/delete', {}, headers)).statusCode).toBe(200);
      expect(await svc.ctx.orm.em.fork().count(RecentGoogleSignIn, { userId: id })).toBe(0);
    }, SLOW_MS);

    it('with two-factor sign-in on: gives the app\'s code for each action, and a Google sign-in again is not enough', async () => {
      const { id, google, headers } = await googleOnly('gwen');
      await confirmWithGoogle(google, headers, 'two-factor-on');
      const { on, secret } = await turnOnTwoFactor(headers);
      expect(on.statusCode).toBe(200);
      expect(await methods(headers)).toMatchObject({ password: false, twoFactor: true, reauthentication: 'totp' });
      const code = (steps: number) => totpCode(secret, Date.now() + steps * STEP_MS);
      const wrong = code(20);

      await confirmWithGoogle(google, headers);
      expect(answer(await post('/users/me/delete', {}, headers))).toEqual([403, needed(RM.codeNeeded, 'totpCode')]);
      expect(answer(await post('/users/me/delete', { totpCode: wrong }, headers)))
        .toEqual([401, refused('invalid_totp_code', 'That code is not right. Check your authenticator app and try again.', 'totpCode')]);
      expect(answer(await post('/auth/change-password', { newPassword: 'my first password' }, headers))).toEqual([403, needed(RM.codeNeeded, 'totpCode')]);
      expect((await post('/auth/two-factor/recovery-codes', { code: wrong }, headers)).statusCode).toBe(401);
      expect((await post('/auth/two-factor/disable', { code: wrong }, headers)).statusCode).toBe(401);

      // A code is good once: the one that turned it on is spent.
      expect(answer(await post('/users/me/delete', { totpCode: code(0) }, headers))[1].code).toBe('totp_code_reused');
      const deleted = await post('/users/me/delete', { totpCode: code(1) }, headers);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).deletedAt).not.toBeNull();
    }, SLOW_MS);

    it('refuses a confirmation that comes back on another session or with another Google account, and sends a visitor to log in', async () => {
      const { id, google, headers } = await googleOnly('gil');
      const other = await as(svc, id, 'user', 'gil-other-session');
      expect(await confirmWithGoogle(google, headers, 'delete-account', other)).toBe('/profile?reauthenticated=delete-account&failed=google_failed');
      expect(await confirmWithGoogle({ ...google, sub: 'google-someone-else' }, headers)).toBe('/profile?reauthenticated=delete-account&failed=google_other_account');
      expect(await confirmWithGoogle(null, headers)).toBe('/profile?reauthenticated=delete-account&failed=google_cancelled');
      expect(await svc.ctx.orm.em.fork().count(RecentGoogleSignIn, { userId: id })).toBe(0);
      expect(answer(await post('/users/me/delete', {}, headers))[0]).toBe(403);

      const visitor = await signInWithGoogle(google, { query: { reauthenticate: 'delete-account' } });
      expect([visitor.start.headers.location, visitor.callback]).toEqual(['/login', null]);
      const unknown = await svc.app.inject({ method: 'GET', url: '/auth/google?reauthenticate=everything', headers });
      expect(unknown.statusCode).toBe(400);
    }, SLOW_MS);
  });
});
