import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, ReferralList, SignupRequestResponse, SignupVerifyResponse } from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { PendingSignup } from './domain/pending-signup.ts';
import { User } from './domain/user.ts';
import { Referral } from './domain/referral.ts';
import { ADMIN, browser, as, eventsDuring, login, person, requestSignup, startIdentity } from './testing/helpers.ts';

describeWithInfra(['postgres'], 'sign-up', () => {
  const db = useFreshDatabase('identity_signup');
  let svc: TestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const signup = async (payload: Record<string, unknown>) =>
    svc.app.inject({ method: 'POST', url: '/signup/request', headers: await browser(), payload });
  const verify = async (token: unknown) => svc.app.inject({ method: 'POST', url: '/signup/verify', headers: await browser(), payload: { token } });

  it('with a valid referral code: a token, then verification makes a verified user the referrer sees', async () => {
    const ana = person('ana');
    let token = '';
    const requestEvents = await eventsDuring(svc, async () => {
      const res = await signup({ ...ana, email: ` ${ana.email.toUpperCase()} `, referralCode: ' first-code ' });
      expect(res.statusCode).toBe(201);
      const body = SignupRequestResponse.parse(res.json());
      token = body.verificationToken ?? '';
      expect(body).toEqual({ message: 'Check your email for a verification link.', verificationToken: expect.stringMatching(/^[\w-]{43}$/) });
    });
    expect(requestEvents.map((e) => [e.type, e.payload])).toEqual([['identity.signup.attempted', {
      email: ana.email, step: 'request', status: 'pending', failureReason: null, referralCode: 'FIRST-CODE',
      ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: false,
    }]]);
    expect(JSON.stringify(requestEvents)).not.toContain(ana.password);
    expect(JSON.stringify(requestEvents)).not.toContain(token);

    // Not a user until verified: the directory does not list them and they cannot log in.
    expect(await svc.ctx.orm.em.fork().count(User, { email: ana.email })).toBe(0);

    const verifyEvents = await eventsDuring(svc, async () => {
      const res = await verify(token);
      expect(res.statusCode).toBe(200);
      expect(SignupVerifyResponse.parse(res.json())).toEqual({ message: 'Your account is verified. You can now log in.' });
    });
    const admin = await svc.ctx.orm.em.fork().findOneOrFail(User, { role: 'admin' });
    const user = await svc.ctx.orm.em.fork().findOneOrFail(User, { email: ana.email });
    expect(verifyEvents.map((e) => [e.type, e.payload])).toEqual([
      ['identity.user.registered', { userId: user.id, firstName: 'Ana', lastName: 'Rojas', role: 'user', referrerId: admin.id }],
      ['identity.signup.attempted', {
        email: ana.email, step: 'verify', status: 'completed', failureReason: null, referralCode: 'FIRST-CODE',
        ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: false, userId: user.id,
      }],
    ]);
    expect(user).toMatchObject({ emailVerified: true, referredById: admin.id, role: 'user' });
    expect(user.referralCode).toMatch(/^[A-Z2-9]{8}$/);

    // The new user logs in with the email in any case, and the referrer sees them in their referrals.
    expect((await login(svc, { email: ana.email.toUpperCase(), password: ana.password })).userId).toBe(user.id);
    const list = await svc.app.inject({ method: 'GET', url: '/referral/list', headers: await as(svc, admin.id, 'admin') });
    expect(ReferralList.parse(list.json())).toEqual([{ id: expect.any(Number), referredId: user.id, createdAt: expect.any(String), firstName: 'Ana', lastName: 'Rojas' }]);
  });

  it('refuses an invalid referral code and an empty one, and publishes the failed attempts', async () => {
    const bea = person('bea');
    const events = await eventsDuring(svc, async () => {
      const invalid = await signup({ ...bea, referralCode: 'NOPE-NOPE' });
      expect(invalid.statusCode).toBe(400);
      expect(ErrorBody.parse(invalid.json())).toEqual({
        message: 'Invalid referral code. Please ask a friend for a valid code.', code: 'invalid_referral_code',
        errors: [{ field: 'referralCode', message: 'Invalid referral code. Please ask a friend for a valid code.' }],
      });
      const empty = await signup({ ...bea, referralCode: '   ' });
      expect(empty.statusCode).toBe(400);
      expect(ErrorBody.parse(empty.json())).toEqual({
        message: 'Referral code is required', code: 'validation_failed', errors: [{ field: 'referralCode', message: 'Referral code is required' }],
      });
      const missing = await signup({ ...bea });
      expect(ErrorBody.parse(missing.json()).message).toBe('Referral code is required');
    }, 'identity.signup.attempted');
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ email: bea.email, step: 'request', status: 'failed', failureReason: 'invalid_referral_code', referralCode: 'NOPE-NOPE', ipAddress: '203.0.113.9' }),
      expect.objectContaining({ email: bea.email, step: 'request', status: 'failed', failureReason: 'validation', referralCode: null }),
      expect.objectContaining({ email: bea.email, step: 'request', status: 'failed', failureReason: 'validation', referralCode: null }),
    ]);
    expect(await svc.ctx.orm.em.fork().count(PendingSignup, { email: bea.email })).toBe(0);
  });

  it("answers every validation message of spec section 5, the first one as message", async () => {
    const res = await signup({ email: 'ana@', password: '1234567', firstName: ' ', lastName: '', referralCode: ADMIN.referralCode });
    expect(res.statusCode).toBe(400);
    expect(ErrorBody.parse(res.json())).toEqual({
      message: 'Please enter a valid email address',
      code: 'validation_failed',
      errors: [
        { field: 'email', message: 'Please enter a valid email address' },
        { field: 'password', message: 'Password must be at least 8 characters' },
        { field: 'firstName', message: 'First name is required' },
        { field: 'lastName', message: 'Last name is required' },
      ],
    });
    const one = async (change: Record<string, unknown>) => ErrorBody.parse((await signup({ ...person(), referralCode: ADMIN.referralCode, ...change })).json()).message;
    expect(await one({ email: 'not an email' })).toBe('Please enter a valid email address');
    expect(await one({ password: 'short' })).toBe('Password must be at least 8 characters');
    expect(await one({ firstName: undefined })).toBe('First name is required');
    expect(await one({ lastName: '  ' })).toBe('Last name is required');
  });

  it('refuses the email of an existing account with 409 and a clear message, and gives no token', async () => {
    const res = await signup({ ...person(), email: ' First@Puente.TEST ', referralCode: ADMIN.referralCode });
    expect(res.statusCode).toBe(409);
    expect(ErrorBody.parse(res.json())).toEqual({ message: 'An account with this email already exists. Please log in instead.', code: 'email_taken' });
  });

  it('signing up again before verifying replaces the pending sign-up: only the new token works', async () => {
    const cy = person('cy');
    const first = await requestSignup(svc, cy);
    const second = await requestSignup(svc, { ...cy, firstName: 'Cyril' });
    expect((await verify(first)).statusCode).toBe(400);
    expect((await verify(second)).statusCode).toBe(200);
    expect((await svc.ctx.orm.em.fork().findOneOrFail(User, { email: cy.email })).firstName).toBe('Cyril');
  });

  it('a token works once; a reused, unknown, expired or missing token is refused and the attempt recorded', async () => {
    const dee = person('dee');
    const token = await requestSignup(svc, dee);
    expect((await verify(token)).statusCode).toBe(200);
    const events = await eventsDuring(svc, async () => {
      const reused = await verify(token);
      expect(reused.statusCode).toBe(400);
      expect(ErrorBody.parse(reused.json())).toEqual({ message: 'This verification token is invalid or has already been used.', code: 'invalid_token' });
      expect(ErrorBody.parse((await verify('made-up')).json()).code).toBe('invalid_token');
      const missing = await verify(' ');
      expect(missing.statusCode).toBe(400);
      expect(ErrorBody.parse(missing.json()).message).toBe('Verification token is required');
    }, 'identity.signup.attempted');
    expect(events.map((e) => [(e.payload as { status: string }).status, (e.payload as { failureReason: string }).failureReason]))
      .toEqual([['failed', 'invalid_token'], ['failed', 'invalid_token'], ['failed', 'validation']]);
    expect(await svc.ctx.orm.em.fork().count(Referral, {})).toBeGreaterThanOrEqual(2);

    const eve = person('eve');
    const old = await requestSignup(svc, eve);
    await svc.ctx.orm.em.fork().nativeUpdate(PendingSignup, { email: eve.email }, { expiresAt: new Date(Date.now() - 1000) });
    const expiredEvents = await eventsDuring(svc, async () => {
      const expired = await verify(old);
      expect(expired.statusCode).toBe(400);
      expect(ErrorBody.parse(expired.json())).toEqual({ message: 'This verification token has expired. Please sign up again.', code: 'expired_token' });
    }, 'identity.signup.attempted');
    expect(expiredEvents.map((e) => e.payload)).toEqual([expect.objectContaining({ email: eve.email, step: 'verify', status: 'failed', failureReason: 'expired_token', referralCode: 'FIRST-CODE' })]);
    expect(await svc.ctx.orm.em.fork().count(User, { email: eve.email })).toBe(0);
  });

  it('an account not verified yet cannot log in: a clear 403 for its password, 401 for any other', async () => {
    const fay = person('fay');
    await requestSignup(svc, fay);
    const events = await eventsDuring(svc, async () => {
      const right = await svc.app.inject({ method: 'POST', url: '/auth/login', headers: await browser(), payload: { email: fay.email, password: fay.password } });
      expect(right.statusCode).toBe(403);
      expect(ErrorBody.parse(right.json())).toEqual({ message: 'Please verify your email address before logging in. Check your inbox for the verification link.', code: 'unverified' });
      expect(right.headers['x-session-action']).toBeUndefined();
      const wrong = await svc.app.inject({ method: 'POST', url: '/auth/login', payload: { email: fay.email, password: 'not the password' } });
      expect(wrong.statusCode).toBe(401);
      expect(ErrorBody.parse(wrong.json()).message).toBe('Invalid email or password');
    }, 'identity.login.attempted');
    expect(events.map((e) => (e.payload as { failureReason: string }).failureReason)).toEqual(['unverified', 'invalid_credentials']);
  });
});

describeWithInfra(['postgres'], 'sign-up in production', () => {
  const db = useFreshDatabase('identity_signup_prod');
  let svc: TestService;
  beforeAll(async () => { svc = await startIdentity(db.url, { NODE_ENV: 'production' }); });
  afterAll(async () => { await svc?.stop(); });

  it('does not return the verification token (it goes out by email, or into MAIL_DIR)', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/signup/request', payload: { ...person(), referralCode: ADMIN.referralCode } });
    expect(res.statusCode).toBe(201);
    expect(SignupRequestResponse.parse(res.json())).toEqual({ message: 'Check your email for a verification link.' });
  });
});

describeWithInfra(['postgres'], 'sign-up in production with EXPOSE_VERIFICATION_TOKEN=true', () => {
  const db = useFreshDatabase('identity_signup_prod_exposed');
  let svc: TestService;
  beforeAll(async () => { svc = await startIdentity(db.url, { NODE_ENV: 'production', EXPOSE_VERIFICATION_TOKEN: true }); });
  afterAll(async () => { await svc?.stop(); });

  it('returns the verification token, which verifies the account', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/signup/request', payload: { ...person('ivy'), referralCode: ADMIN.referralCode } });
    expect(res.statusCode).toBe(201);
    const body = SignupRequestResponse.parse(res.json());
    expect(body).toEqual({ message: 'Check your email for a verification link.', verificationToken: expect.stringMatching(/^[\w-]{43}$/) });
    const verified = await svc.app.inject({ method: 'POST', url: '/signup/verify', payload: { token: body.verificationToken } });
    expect(verified.statusCode).toBe(200);
    expect(SignupVerifyResponse.parse(verified.json())).toEqual({ message: 'Your account is verified. You can now log in.' });
  });
});
