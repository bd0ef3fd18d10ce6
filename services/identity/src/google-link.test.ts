/**
 * Linking a Google account to an existing account: a Google sign-in with the account's email links nothing by itself;
 * /link-google asks for the account's password once (and the app's code, two-factor on), then links, signs in and
 * emails the user (over SMTP, to the testkit's server). The profile removes the link, only from an account with a
 * password; the link email's "I didn't do this" asks for a reset that removes it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ErrorBody, GoogleLinkMessages, Message, PendingGoogleLink, SignInMethodMessages, SignInMethods, TwoFactorEnabled, TwoFactorSetup,
} from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { decodeHeader, describeWithInfra, startFakeSmtp, useFreshDatabase, type FakeSmtpServer } from '@puente/testkit';
import { vi } from 'vitest';
import { User } from './domain/user.ts';
import { PasswordReset } from './domain/password-reset.ts';
import { totpCode } from './domain/totp.ts';
import { browser, as, eventsDuring, login, person, registered, startIdentity, type Person } from './testing/helpers.ts';
import { startFakeOidc, type FakeGoogleUser, type FakeOidcProvider } from './testing/fake-oidc.ts';
import { GOOGLE_CLIENT, cookiesFrom, googleBrowser, googleSettings, sessionActionOf } from './testing/google-browser.ts';
import { linkToken } from './testing/mail-folder.ts';

const LINK_COOKIE = 'puente_google_link';

describeWithInfra(['postgres'], 'linking a Google account to an existing account', () => {
  const db = useFreshDatabase('identity_google_link');
  let svc: TestService;
  let idp: FakeOidcProvider;
  let smtp: FakeSmtpServer;
  let signInWithGoogle: ReturnType<typeof googleBrowser>;
  beforeAll(async () => {
    idp = await startFakeOidc(GOOGLE_CLIENT);
    smtp = await startFakeSmtp();
    svc = await startIdentity(db.url, { ...googleSettings(idp), SMTP_URL: smtp.url });
    signInWithGoogle = googleBrowser(svc, idp);
  });
  afterAll(async () => { await svc?.stop(); await idp?.stop(); await smtp?.stop(); });

  /** The email to `to` whose subject is `subject`, once it has arrived (sent in the background). */
  const mailTo = (to: string, subject: string) => vi.waitFor(() => {
    const mail = smtp.messages.find((m) => m.to.includes(to) && decodeHeader(/^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '') === subject);
    if (!mail) throw new Error(`no "${subject}" to ${to} yet`);
    return mail;
  }, { timeout: 5000, interval: 20 });

  /** A Google sign-in with `p`'s email: the pending link's cookie, as the browser keeps it for /link-google. */
  async function pendingLink(p: Person, sub: string): Promise<{ cookie: string; google: FakeGoogleUser }> {
    const google: FakeGoogleUser = { sub, email: p.email, email_verified: true, given_name: p.firstName };
    const { callback } = await signInWithGoogle(google);
    expect(callback!.headers.location).toBe('/link-google');
    expect(await sessionActionOf(callback!)).toBeUndefined();
    return { cookie: cookiesFrom(callback!)[LINK_COOKIE]!, google };
  }
  const pending = async (cookie: string) => svc.app.inject({ method: 'GET', url: '/auth/google/link', headers: { ...(await browser()), cookie } });
  const link = async (cookie: string, payload: object) => svc.app.inject({ method: 'POST', url: '/auth/google/link', headers: { ...(await browser()), cookie }, payload });
  const answer = (res: { statusCode: number; json: () => unknown }) => [res.statusCode, ErrorBody.parse(res.json())] as const;

  it('asks for the password once: a wrong one is refused and recorded; the right one links, signs in and emails when and from where', async () => {
    const ana = { ...person('ana'), email: 'ana@gmail.test' };
    const id = await registered(svc, ana);
    const { cookie, google } = await pendingLink(ana, 'google-ana');
    expect(PendingGoogleLink.parse((await pending(cookie)).json())).toEqual({ email: ana.email, twoFactor: false });

    const refused = await eventsDuring(svc, async () => {
      expect(answer(await link(cookie, { password: 'not her password' }))).toEqual([401, {
        message: GoogleLinkMessages.passwordWrong, code: 'wrong_password', errors: [{ field: 'password', message: GoogleLinkMessages.passwordWrong }],
      }]);
    }, 'identity.login.attempted');
    expect(refused.map((e) => e.payload)).toEqual([expect.objectContaining({ email: ana.email, method: 'google', status: 'failed', failureReason: 'wrong_password', userId: id })]);
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBeNull();

    const linked = await eventsDuring(svc, async () => {
      const res = await link(cookie, { password: ana.password });
      expect(res.statusCode, res.body).toBe(200);
      expect(Message.parse(res.json())).toEqual({ message: GoogleLinkMessages.linked });
      expect(await sessionActionOf(res)).toEqual({ action: 'grant', userId: id, role: 'user' });
      expect(res.cookies.find((c) => c.name === LINK_COOKIE)).toMatchObject({ value: '', path: '/api/auth/google' });
    }, 'identity.login.attempted');
    expect(linked.map((e) => e.payload)).toEqual([expect.objectContaining({ email: ana.email, method: 'google', status: 'success', userId: id })]);
    const user = await svc.ctx.orm.em.fork().findOneOrFail(User, { id });
    expect(user.googleSubject).toBe('google-ana');
    expect(Date.now() - user.googleLinkedAt!.getTime()).toBeLessThan(60_000);

    const mail = await mailTo(ana.email, 'A Google account was linked to your Puente account');
    expect(mail.text).toMatch(/When: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(mail.text).toContain('Network: 203.0.113.0/24 (approximate)');
    expect(mail.text).toContain('http://puente.test:8080/forgot-password?unlinkGoogle=1');

    // Asked once: from now on Google signs her in, and the used cookie links nothing again.
    const { callback } = await signInWithGoogle(google);
    expect([callback!.headers.location, (await sessionActionOf(callback!))?.action]).toEqual(['/dashboard', 'grant']);
    expect(answer(await link(cookie, { password: ana.password }))).toEqual([401, { message: GoogleLinkMessages.expired, code: 'google_link_expired' }]);
  });

  it('with two-factor sign-in on, asks for the app\'s code (or a recovery code) with the password', async () => {
    const bea = { ...person('bea'), email: 'bea@gmail.test' };
    const id = await registered(svc, bea);
    const headers = await as(svc, id);
    const { secret } = TwoFactorSetup.parse((await svc.app.inject({ method: 'POST', url: '/auth/two-factor/setup', headers })).json());
    const on = await svc.app.inject({ method: 'POST', url: '/auth/two-factor/enable', headers, payload: { currentPassword: bea.password, code: totpCode(secret) } });
    const { recoveryCodes } = TwoFactorEnabled.parse(on.json());
    const { cookie } = await pendingLink(bea, 'google-bea');
    expect(PendingGoogleLink.parse((await pending(cookie)).json())).toEqual({ email: bea.email, twoFactor: true });

    expect(answer(await link(cookie, { password: bea.password }))[1]).toMatchObject({ code: 'reauthentication_required', errors: [{ field: 'code' }] });
    expect(answer(await link(cookie, { password: bea.password, code: totpCode(secret, Date.now() + 20 * 30_000) }))).toEqual([401, expect.objectContaining({
      code: 'invalid_totp_code', errors: [{ field: 'code', message: 'That code is not right. Check your authenticator app and try again.' }],
    })]);
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBeNull();
    const res = await link(cookie, { password: bea.password, code: recoveryCodes[0] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await sessionActionOf(res)).toEqual({ action: 'grant', userId: id, role: 'user', twoFactor: true });
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBe('google-bea');
  });

  it('refuses a link without its cookie, with a tampered one or a sign-in flow\'s, and once the account is linked meanwhile', async () => {
    const cy = { ...person('cy'), email: 'cy@gmail.test' };
    const id = await registered(svc, cy);
    const { cookie } = await pendingLink(cy, 'google-cy');
    const expired = [401, { message: GoogleLinkMessages.expired, code: 'google_link_expired' }];
    const start = await svc.app.inject({ method: 'GET', url: '/auth/google' });
    const flowCookie = cookiesFrom(start).puente_oauth!.replace('puente_oauth=', `${LINK_COOKIE}=`);
    for (const bad of ['', `${cookie.slice(0, -4)}AAAA`, flowCookie]) {
      expect(answer(await pending(bad))).toEqual(expired);
      expect(answer(await link(bad, { password: cy.password }))).toEqual(expired);
    }
    // Linked meanwhile (another way): nothing is waiting any more.
    await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { googleSubject: 'google-cy-other' });
    expect(answer(await link(cookie, { password: cy.password }))).toEqual(expired);
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBe('google-cy-other');
  });

  it('removes the link from the profile, only from an account with a password', async () => {
    const dan = { ...person('dan'), email: 'dan@gmail.test' };
    const id = await registered(svc, dan);
    const headers = await as(svc, id);
    const unlink = async () => svc.app.inject({ method: 'DELETE', url: '/auth/sign-in-methods/google', headers: { ...(await browser()), ...headers } });
    expect(answer(await unlink())).toEqual([404, { message: SignInMethodMessages.googleNotLinked, code: 'not_found' }]);
    const { cookie, google } = await pendingLink(dan, 'google-dan');
    expect((await link(cookie, { password: dan.password })).statusCode).toBe(200);
    const methods = async () => SignInMethods.parse((await svc.app.inject({ method: 'GET', url: '/auth/sign-in-methods', headers })).json());
    expect(await methods()).toMatchObject({ password: true, google: { linked: true, linkedAt: expect.any(String) } });

    // Without a password the account could no longer sign in: refused.
    const hash = (await svc.ctx.orm.em.fork().findOneOrFail(User, { id }, { populate: ['passwordHash'] })).passwordHash;
    await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { passwordHash: null });
    expect(answer(await unlink())).toEqual([409, { message: SignInMethodMessages.passwordNeededToUnlink, code: 'password_needed' }]);
    await svc.ctx.orm.em.fork().nativeUpdate(User, { id }, { passwordHash: hash });

    const res = await unlink();
    expect(res.statusCode).toBe(204);
    expect(await methods()).toMatchObject({ google: { linked: false, linkedAt: null } });
    // Signing in with Google again asks for the password again.
    expect((await signInWithGoogle(google)).callback!.headers.location).toBe('/link-google');
  });

  it('"I didn\'t do this": the reset it asks for removes the link with the new password; a plain reset keeps it', async () => {
    const eva = { ...person('eva'), email: 'eva@gmail.test' };
    const id = await registered(svc, eva);
    const { cookie } = await pendingLink(eva, 'google-eva');
    expect((await link(cookie, { password: eva.password })).statusCode).toBe(200);
    const reset = async (unlinkGoogle: boolean | undefined, password: string, count: number) => {
      const forgot = await svc.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: eva.email, ...(unlinkGoogle === undefined ? {} : { unlinkGoogle }) } });
      expect(forgot.statusCode).toBe(200);
      const mails = await vi.waitFor(() => {
        const found = smtp.messages.filter((m) => m.to.includes(eva.email) && m.text.includes('/reset-password#token='));
        if (found.length < count) throw new Error('no reset email yet');
        return found;
      }, { timeout: 5000, interval: 20 });
      const res = await svc.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: linkToken(mails[count - 1]!, 'reset-password'), password } });
      expect(res.statusCode, res.body).toBe(200);
      expect(await sessionActionOf(res)).toEqual({ action: 'revoke-all', userId: id });
    };

    await reset(undefined, 'a plain new password', 1);
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBe('google-eva');
    await reset(true, 'not linked any more', 2);
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { id })).googleSubject).toBeNull();
    expect(await svc.ctx.orm.em.fork().count(PasswordReset, { userId: id })).toBe(0);
    expect((await login(svc, { email: eva.email, password: 'not linked any more' })).userId).toBe(id);
  });
});
