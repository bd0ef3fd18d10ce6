import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { PasswordReset } from './domain/password-reset.ts';
import { BROWSER, as, login, person, registered, startIdentity } from './testing/helpers.ts';
import { startFakeSmtp, type FakeSmtpServer } from './testing/fake-smtp.ts';

describeWithInfra(['postgres'], 'passwords: forgot, reset, change', () => {
  const db = useFreshDatabase('identity_passwords');
  let svc: TestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const forgot = (email: string) => svc.app.inject({ method: 'POST', url: '/auth/forgot-password', headers: BROWSER, payload: { email } });
  const reset = (token: string, password: string) => svc.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token, password } });
  const loginStatus = async (email: string, password: string) =>
    (await svc.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } })).statusCode;

  it('forgot password answers the same for an unknown email; reset works once and ends every session', async () => {
    const ana = person('ana');
    const id = await registered(svc, ana);
    const unknown = await forgot('nobody@puente.test');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ message: 'If an account exists for this email, we have sent it a link to reset the password.' });

    const res = await forgot(ana.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const { message, resetToken } = res.json();
    expect(message).toBe(unknown.json().message);
    expect(resetToken).toMatch(/^[\w-]{43}$/);

    const tooShort = await reset(resetToken, 'short');
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json().message).toBe('Password must be at least 8 characters');

    const done = await reset(resetToken, 'a brand new password');
    expect(done.statusCode).toBe(200);
    expect(await svc.ctx.auth.verifySessionAction(String(done.headers['x-session-action']))).toEqual({ action: 'revoke-all', userId: id });
    expect(await loginStatus(ana.email, ana.password)).toBe(401);
    expect(await loginStatus(ana.email, 'a brand new password')).toBe(200);

    const again = await reset(resetToken, 'yet another password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: 'This password reset token is invalid or has already been used.', code: 'invalid_token' });
  });

  it('a reset token expires after an hour, and only the newest one works', async () => {
    const bea = person('bea');
    const id = await registered(svc, bea);
    const first = (await forgot(bea.email)).json().resetToken;
    const second = (await forgot(bea.email)).json().resetToken;
    expect((await reset(first, 'a brand new password')).json().code).toBe('invalid_token');
    const row = await svc.ctx.orm.em.fork().findOneOrFail(PasswordReset, { userId: id });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(3600_000);
    await svc.ctx.orm.em.fork().nativeUpdate(PasswordReset, { userId: id }, { expiresAt: new Date(Date.now() - 1) });
    const expired = await reset(second, 'a brand new password');
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ message: 'This password reset token has expired. Please ask for a new one.', code: 'expired_token' });
    expect(await loginStatus(bea.email, bea.password)).toBe(200);
  });

  it('change password needs the current one and ends the other sessions, keeping this one', async () => {
    const cy = person('cy');
    const id = await registered(svc, cy);
    const change = async (payload: Record<string, unknown>, headers?: Record<string, string>) =>
      svc.app.inject({ method: 'POST', url: '/auth/change-password', headers: headers ?? await as(svc, id, 'user', 'session-of-cy'), payload });

    expect((await change({ currentPassword: cy.password, newPassword: 'another password' }, {})).statusCode).toBe(401);
    const wrong = await change({ currentPassword: 'not it at all', newPassword: 'another password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: 'Current password is incorrect', errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }] });
    expect((await change({ currentPassword: cy.password, newPassword: 'short' })).json().message).toBe('Password must be at least 8 characters');
    expect((await change({ newPassword: 'another password' })).json().message).toBe('Current password is required');

    const ok = await change({ currentPassword: cy.password, newPassword: 'another password' });
    expect(ok.statusCode).toBe(200);
    expect(await svc.ctx.auth.verifySessionAction(String(ok.headers['x-session-action'])))
      .toEqual({ action: 'revoke-others', userId: id, keepSessionId: 'session-of-cy' });
    expect(await loginStatus(cy.email, cy.password)).toBe(401);
    expect((await login(svc, { email: cy.email, password: 'another password' })).userId).toBe(id);
  });
});

describeWithInfra(['postgres'], 'passwords in production, emailed over SMTP', () => {
  const db = useFreshDatabase('identity_passwords_smtp');
  let svc: TestService;
  let smtp: FakeSmtpServer;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    svc = await startIdentity(db.url, { NODE_ENV: 'production', SMTP_URL: smtp.url, MAIL_FROM: 'Puente <hello@puente.test>', PUBLIC_URL: 'https://puente.test/' });
  });
  afterAll(async () => { await svc?.stop(); await smtp?.stop(); });

  it('emails the verification and reset tokens instead of returning them', async () => {
    const dee = person('dee');
    const signup = await svc.app.inject({ method: 'POST', url: '/signup/request', payload: { ...dee, referralCode: 'FIRST-CODE' } });
    expect(signup.statusCode).toBe(201);
    expect(signup.json().verificationToken).toBeUndefined();
    const [welcome] = await smtp.waitFor(1);
    expect(welcome).toMatchObject({ from: 'hello@puente.test', to: [dee.email] });
    const token = /verify-email\?token=([\w-]{43})/.exec(welcome!.text)?.[1];
    expect(welcome!.text).toContain(`https://puente.test/verify-email?token=${token}`);
    expect((await svc.app.inject({ method: 'POST', url: '/signup/verify', payload: { token } })).statusCode).toBe(200);

    const forgot = await svc.app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email: dee.email } });
    expect(forgot.json()).toEqual({ message: 'If an account exists for this email, we have sent it a link to reset the password.' });
    const [, resetMail] = await smtp.waitFor(2);
    const resetToken = /reset-password\?token=([\w-]{43})/.exec(resetMail!.text)?.[1];
    expect(resetToken).toBeDefined();
    expect((await svc.app.inject({ method: 'POST', url: '/auth/reset-password', payload: { token: resetToken, password: 'reset by email' } })).statusCode).toBe(200);
    expect((await login(svc, { email: dee.email, password: 'reset by email' })).role).toBe('user');
  });
});
