import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, EventEnvelope, Events, ForgotPasswordResponse, Message, SignupRequestResponse } from '@puente/contracts';
import { OutboxEvent } from '@puente/platform';
import { describeWithInfra, mailsIn, startFakeSmtp, useFreshDatabase, type FakeSmtpServer } from '@puente/testkit';
import { PasswordReset } from './domain/password-reset.ts';
import { ADMIN, browser, as, login, person, registered, startIdentity, type IdentityTestService } from './testing/helpers.ts';
import { linkToken, waitForMail } from './testing/mail-folder.ts';
import { testAuth } from '@puente/platform/testing';

/** The gateway's side of the test keys: it reads the session actions identity signs for it. */
const gatewayAuth = testAuth('gateway');

const FORGOT_ANSWER = { message: 'If an account exists for this email, we have sent it a link to reset the password.' };
/** For tests that wait for an email: above the 5 s a wait for one may take. */
const MAIL_TEST_TIMEOUT_MS = 10_000;

describeWithInfra(['postgres'], 'passwords: forgot, reset, change', () => {
  const db = useFreshDatabase('identity_passwords');
  let svc: IdentityTestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const forgot = async (email: string) => svc.app.inject({ method: 'POST', url: '/auth/forgot-password', headers: await browser(), payload: { email } });
  const reset = (token: string, password: string) => svc.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password } });
  const loginStatus = async (email: string, password: string) =>
    (await svc.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } })).statusCode;

  /** What identity announced to every gateway instance of the sessions it ended for this user (userSessionsEnded). */
  const sessionsEnded = async (userId: number) => (await svc.ctx.orm.em.fork().find(OutboxEvent, { type: Events.userSessionsEnded.type, aggregateId: String(userId) }))
    .map((e) => Events.userSessionsEnded.payload.parse(EventEnvelope.parse(e.envelope).payload)).map(({ endedAt, ...rest }) => ({ ...rest, endedAt: typeof endedAt }));

  /** The reset token of the `count`-th reset email to `email` (emailed in the background, read from MAIL_DIR). */
  const emailedResetToken = async (email: string, count = 1) => linkToken(await waitForMail(svc.mailDir, email, 'password-reset', count), 'reset-password');

  it('forgot password answers a known and an unknown email alike, and never with the token (tokens are on by default)', async () => {
    const ana = person('ana');
    await registered(svc, ana);
    const unknown = await forgot('nobody@puente.test');
    const known = await forgot(ana.email.toUpperCase());
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(ForgotPasswordResponse.parse(known.json())).toEqual(FORGOT_ANSWER);
    expect(known.headers['content-length']).toBe(unknown.headers['content-length']);

    const token = await emailedResetToken(ana.email);
    expect(known.body).not.toContain(token);
    expect((await mailsIn(svc.mailDir)).filter((m) => m.to === 'nobody@puente.test')).toEqual([]);
  }, MAIL_TEST_TIMEOUT_MS);

  it('reset works once with the emailed token and ends every session', async () => {
    const ana = person('ana');
    const id = await registered(svc, ana);
    expect(ForgotPasswordResponse.parse((await forgot(ana.email)).json())).toEqual(FORGOT_ANSWER);
    const resetToken = await emailedResetToken(ana.email);

    const tooShort = await reset(resetToken, 'short');
    expect(tooShort.statusCode).toBe(400);
    expect(ErrorBody.parse(tooShort.json()).message).toBe('Password must be at least 8 characters');

    const done = await reset(resetToken, 'a brand new password');
    expect(done.statusCode).toBe(200);
    expect(Message.parse(done.json())).toEqual({ message: 'Your password has been reset. You can now log in.' });
    expect(await gatewayAuth.verifySessionAction(String(done.headers['x-session-action']))).toEqual({ action: 'revoke-all', userId: id });
    expect(await sessionsEnded(id)).toEqual([{ userId: id, endedAt: 'string' }]);
    expect(await loginStatus(ana.email, ana.password)).toBe(401);
    expect(await loginStatus(ana.email, 'a brand new password')).toBe(200);

    const again = await reset(resetToken, 'yet another password');
    expect(again.statusCode).toBe(400);
    expect(ErrorBody.parse(again.json())).toEqual({ message: 'This password reset token is invalid or has already been used.', code: 'invalid_token' });
  }, MAIL_TEST_TIMEOUT_MS);

  it('a reset token expires after an hour, and only the newest one works', async () => {
    const bea = person('bea');
    const id = await registered(svc, bea);
    await forgot(bea.email);
    const first = await emailedResetToken(bea.email, 1);
    await forgot(bea.email);
    const second = await emailedResetToken(bea.email, 2);
    expect(ErrorBody.parse((await reset(first, 'a brand new password')).json()).code).toBe('invalid_token');
    const row = await svc.ctx.orm.em.fork().findOneOrFail(PasswordReset, { userId: id });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(3600_000);
    await svc.ctx.orm.em.fork().nativeUpdate(PasswordReset, { userId: id }, { expiresAt: new Date(Date.now() - 1) });
    const expired = await reset(second, 'a brand new password');
    expect(expired.statusCode).toBe(400);
    expect(ErrorBody.parse(expired.json())).toEqual({ message: 'This password reset token has expired. Please ask for a new one.', code: 'expired_token' });
    expect(await loginStatus(bea.email, bea.password)).toBe(200);
  }, MAIL_TEST_TIMEOUT_MS);

  it('two requests at once still leave one working token', async () => {
    const gus = person('gus');
    const id = await registered(svc, gus);
    await Promise.all([forgot(gus.email), forgot(gus.email)]);
    await emailedResetToken(gus.email, 2);
    expect(await svc.ctx.orm.em.fork().count(PasswordReset, { userId: id })).toBe(1);
  }, MAIL_TEST_TIMEOUT_MS);

  it('change password needs the current one and ends the other sessions, keeping this one', async () => {
    const cy = person('cy');
    const id = await registered(svc, cy);
    const change = async (payload: Record<string, unknown>, headers?: Record<string, string>) =>
      svc.app.inject({ method: 'POST', url: '/auth/change-password', headers: headers ?? await as(svc, id, 'user', 'session-of-cy'), payload });

    expect((await change({ currentPassword: cy.password, newPassword: 'another password' }, {})).statusCode).toBe(401);
    const wrong = await change({ currentPassword: 'not it at all', newPassword: 'another password' });
    expect(wrong.statusCode).toBe(401);
    expect(ErrorBody.parse(wrong.json())).toEqual({
      message: 'Current password is incorrect', code: 'wrong_password', errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
    });
    expect(ErrorBody.parse((await change({ currentPassword: cy.password, newPassword: 'short' })).json()).message).toBe('Password must be at least 8 characters');
    const none = await change({ newPassword: 'another password' });
    expect([none.statusCode, ErrorBody.parse(none.json()).message]).toEqual([403, 'Enter your current password to confirm.']);

    const ok = await change({ currentPassword: cy.password, newPassword: 'another password' });
    expect(ok.statusCode).toBe(200);
    expect(Message.parse(ok.json())).toEqual({ message: 'Your password has been changed. Your other sessions have been signed out.' });
    expect(await gatewayAuth.verifySessionAction(String(ok.headers['x-session-action'])))
      .toEqual({ action: 'revoke-others', userId: id, keepSessionId: 'session-of-cy' });
    // Never the session id itself: the kept one as its hash.
    expect(await sessionsEnded(id)).toEqual([{ userId: id, endedAt: 'string', keptSessionHash: createHash('sha256').update('session-of-cy').digest('base64url') }]);
    expect(await loginStatus(cy.email, cy.password)).toBe(401);
    expect((await login(svc, { email: cy.email, password: 'another password' })).userId).toBe(id);
  });
});

describeWithInfra(['postgres'], 'passwords in production without SMTP: emails written to MAIL_DIR', () => {
  const db = useFreshDatabase('identity_passwords_mail_dir');
  let svc: IdentityTestService;
  beforeAll(async () => { svc = await startIdentity(db.url, { NODE_ENV: 'production', PUBLIC_URL: 'https://puente.test/' }); });
  afterAll(async () => { await svc?.stop(); });

  it('writes the verification and reset emails as .eml files only their owner can read', async () => {
    const eve = person('eve');
    const signup = await svc.app.inject({ method: 'POST', url: '/signup/request', payload: { ...eve, referralCode: ADMIN.referralCode } });
    expect(SignupRequestResponse.parse(signup.json())).toEqual({ message: 'Check your email for a verification link.' });
    const welcome = await waitForMail(svc.mailDir, eve.email, 'verification');
    expect(welcome).toMatchObject({ subject: 'Verify your Puente account', file: expect.stringMatching(/-verification-[0-9a-f]{8}\.eml$/) });
    const token = linkToken(welcome, 'verify-email');
    // In the fragment, which a browser never sends: opening the link leaves the token in no request's URL.
    expect(welcome.text).toContain(`https://puente.test/verify-email#token=${token}`);
    expect(welcome.text).not.toContain('?token=');
    expect((await svc.app.inject({ method: 'POST', url: '/signup/verify', payload: { token } })).statusCode).toBe(200);

    expect(ForgotPasswordResponse.parse((await svc.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: eve.email } })).json())).toEqual(FORGOT_ANSWER);
    const resetMail = await waitForMail(svc.mailDir, eve.email, 'password-reset');
    expect(resetMail).toMatchObject({ subject: 'Reset your Puente password', file: expect.stringMatching(/-password-reset-[0-9a-f]{8}\.eml$/) });
    expect(resetMail.text).toContain(`https://puente.test/reset-password#token=${linkToken(resetMail, 'reset-password')}`);
    expect(resetMail.text).not.toContain('?token=');
    expect((await svc.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: linkToken(resetMail, 'reset-password'), password: 'reset from the file' } })).statusCode).toBe(200);
    expect((await login(svc, { email: eve.email, password: 'reset from the file' })).role).toBe('user');

    expect((await stat(svc.mailDir)).mode & 0o777).toBe(0o700);
    for (const mail of [welcome, resetMail]) expect((await stat(mail.file)).mode & 0o777).toBe(0o600);
  }, MAIL_TEST_TIMEOUT_MS);
});

describeWithInfra(['postgres'], 'passwords in production, emailed over SMTP', () => {
  const db = useFreshDatabase('identity_passwords_smtp');
  let svc: IdentityTestService;
  let smtp: FakeSmtpServer;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    svc = await startIdentity(db.url, { NODE_ENV: 'production', SMTP_URL: smtp.url, MAIL_FROM: 'Puente <hello@puente.test>', PUBLIC_URL: 'https://puente.test/' });
  });
  afterAll(async () => { await svc?.stop(); await smtp?.stop(); });

  it('emails the verification and reset tokens instead of returning them, and writes no files', async () => {
    const dee = person('dee');
    const signup = await svc.app.inject({ method: 'POST', url: '/signup/request', payload: { ...dee, referralCode: 'FIRST-CODE' } });
    expect(signup.statusCode).toBe(201);
    expect(SignupRequestResponse.parse(signup.json())).toEqual({ message: 'Check your email for a verification link.' });
    const [welcome] = await smtp.waitFor(1);
    expect(welcome).toMatchObject({ from: 'hello@puente.test', to: [dee.email] });
    const token = linkToken(welcome!, 'verify-email');
    expect(welcome!.text).toContain(`https://puente.test/verify-email#token=${token}`);
    expect((await svc.app.inject({ method: 'POST', url: '/signup/verify', payload: { token } })).statusCode).toBe(200);

    const forgot = await svc.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: dee.email } });
    expect(ForgotPasswordResponse.parse(forgot.json())).toEqual(FORGOT_ANSWER);
    const [, resetMail] = await smtp.waitFor(2);
    const resetToken = linkToken(resetMail!, 'reset-password');
    expect((await svc.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: resetToken, password: 'reset by email' } })).statusCode).toBe(200);
    expect((await login(svc, { email: dee.email, password: 'reset by email' })).role).toBe('user');
    expect(await mailsIn(svc.mailDir)).toEqual([]);
  }, MAIL_TEST_TIMEOUT_MS);
});
