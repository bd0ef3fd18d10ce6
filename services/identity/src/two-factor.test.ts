import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, LoginResponse, Message, TwoFactorChallenge, TwoFactorEnabled, TwoFactorSetup, TwoFactorStatus } from '@puente/contracts';
import { testAuth, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { TwoFactor } from './domain/two-factor.ts';
import { totpCode } from './domain/totp.ts';
import { browser, as, eventsDuring, person, registered, startIdentity, type Person } from './testing/helpers.ts';

/** The gateway's side of the test keys: it reads the session actions identity signs for it. */
const gatewayAuth = testAuth('gateway');

const STEP_MS = 30_000;
/** For the tests that check many passwords (scrypt's work each time), on a busy machine. */
const MANY_PASSWORDS_MS = 20_000;

describeWithInfra(['postgres'], 'two-factor sign-in', () => {
  const db = useFreshDatabase('identity_two_factor');
  let svc: TestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'POST', url, headers: { ...(await browser()), ...headers }, payload: payload as object });
  const status = async (id: number) => TwoFactorStatus.parse((await svc.app.inject({ method: 'GET', url: '/auth/two-factor', headers: await as(svc, id) })).json());

  /** Signs someone up and turns two-factor sign-in on with the code of now: their secret and recovery codes. */
  async function withTwoFactor(p: Person = person('tess')) {
    const id = await registered(svc, p);
    const headers = await as(svc, id);
    const setup = TwoFactorSetup.parse((await post('/auth/two-factor/setup', {}, headers)).json());
    const enabled = await post('/auth/two-factor/enable', { currentPassword: p.password, code: totpCode(setup.secret) }, headers);
    expect(enabled.statusCode, enabled.body).toBe(200);
    return { id, p, headers, secret: setup.secret, recoveryCodes: TwoFactorEnabled.parse(enabled.json()).recoveryCodes };
  }

  /** The password step: with two-factor sign-in on, a challenge and no session. */
  async function challengeFor(p: Person): Promise<string> {
    const res = await post('/auth/login', { email: p.email, password: p.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-session-action']).toBeUndefined();
    const body = TwoFactorChallenge.parse(LoginResponse.parse(res.json()));
    expect(body).toEqual({ message: 'Enter the 6-digit code from your authenticator app', code: 'totp_required', challenge: expect.any(String) });
    return body.challenge;
  }
  const secondStep = async (challenge: string, code: string) => post('/auth/login/two-factor', { challenge, code });
  const grantOf = async (res: { headers: Record<string, unknown> }) => gatewayAuth.verifySessionAction(String(res.headers['x-session-action']));

  it('sets up with a secret and its otpauth URI, turns on with the current password and a code, and answers 10 recovery codes once', async () => {
    const p = person('ines');
    const id = await registered(svc, p);
    const headers = await as(svc, id);
    expect(await status(id)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const res = await post('/auth/two-factor/setup', {}, headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { secret, otpauthUri } = TwoFactorSetup.parse(res.json());
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // What an authenticator app reads from it: a TOTP for this account, issued by Puente, with this secret.
    const uri = new URL(otpauthUri);
    expect([uri.protocol, uri.host, decodeURIComponent(uri.pathname)]).toEqual(['otpauth:', 'totp', `/Puente:${p.email}`]);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret, issuer: 'Puente' });
    // Not on until confirmed: the password still signs in alone.
    expect(LoginResponse.parse((await post('/auth/login', { email: p.email, password: p.password })).json())).toEqual({ message: 'Login successful' });

    const noPassword = await post('/auth/two-factor/enable', { code: totpCode(secret) }, headers);
    expect([noPassword.statusCode, ErrorBody.parse(noPassword.json())]).toEqual([403, {
      message: 'Enter your current password to confirm.', code: 'reauthentication_required',
      errors: [{ field: 'currentPassword', message: 'Enter your current password to confirm.' }],
    }]);
    const wrongPassword = await post('/auth/two-factor/enable', { currentPassword: 'not my password', code: totpCode(secret) }, headers);
    expect(wrongPassword.statusCode).toBe(401);
    expect(ErrorBody.parse(wrongPassword.json())).toEqual({
      message: 'Current password is incorrect', code: 'wrong_password', errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
    });
    // A wrong first code does not confirm the setup: a 400, not a refused proof.
    const wrongCode = await post('/auth/two-factor/enable', { currentPassword: p.password, code: totpCode(secret, Date.now() + 5 * STEP_MS) }, headers);
    expect(wrongCode.statusCode).toBe(400);
    expect(ErrorBody.parse(wrongCode.json())).toMatchObject({ code: 'invalid_totp_code', errors: [{ field: 'code' }] });
    const badInput = await post('/auth/two-factor/enable', { currentPassword: p.password, code: '12' }, headers);
    expect(badInput.statusCode).toBe(400);
    expect(ErrorBody.parse(badInput.json()).message).toBe('Enter the 6-digit code from your authenticator app or a recovery code');
    expect(await status(id)).toEqual({ enabled: false, recoveryCodesLeft: 0 });

    const on = await post('/auth/two-factor/enable', { currentPassword: p.password, code: totpCode(secret) }, headers);
    expect(on.statusCode).toBe(200);
    const { recoveryCodes } = TwoFactorEnabled.parse(on.json());
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await status(id)).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect((await post('/auth/two-factor/setup', {}, headers)).statusCode).toBe(409);

    // At rest: the secret sealed, the recovery codes hashed.
    const row = await svc.ctx.orm.em.fork().findOneOrFail(TwoFactor, { userId: id });
    expect(JSON.stringify(row)).not.toContain(secret);
    for (const code of recoveryCodes) expect(JSON.stringify(row)).not.toContain(code);
  });

  it('asks for a code after the right password, and the right code grants the session and records the attempt', async () => {
    const { id, p, secret } = await withTwoFactor();
    const challenge = await challengeFor(p);
    // The code of the setup's step was used to turn it on: the next step's is the one the app shows next.
    const code = totpCode(secret, Date.now() + STEP_MS);
    const events = await eventsDuring(svc, async () => {
      const res = await secondStep(challenge, code);
      expect(res.statusCode, res.body).toBe(200);
      expect(Message.parse(res.json())).toEqual({ message: 'Login successful' });
      expect(await grantOf(res)).toEqual({ action: 'grant', userId: id, role: 'user', twoFactor: true });
    }, 'identity.login.attempted');
    expect(events.map((e) => e.payload)).toEqual([expect.objectContaining({ email: p.email, method: 'password', status: 'success', userId: id })]);
    expect(JSON.stringify(events)).not.toContain(secret);

    // The same code again, within its window: refused, and counted as a failed login.
    const replay = await eventsDuring(svc, async () => {
      const again = await secondStep(await challengeFor(p), code);
      expect(again.statusCode).toBe(401);
      expect(ErrorBody.parse(again.json())).toEqual({ message: 'That code has already been used. Wait for the next one.', code: 'totp_code_reused' });
      expect(again.headers['x-session-action']).toBeUndefined();
    }, 'identity.login.attempted');
    expect(replay.map((e) => e.payload)).toEqual([expect.objectContaining({ email: p.email, status: 'failed', failureReason: 'totp_code_reused', userId: id })]);
  });

  it('refuses wrong codes with 401, records each, and after 5 refuses even the right code with 429 for the window', async () => {
    const { id, p, secret } = await withTwoFactor();
    const challenge = await challengeFor(p);
    const wrong = totpCode(secret, Date.now() + 10 * STEP_MS);
    const events = await eventsDuring(svc, async () => {
      for (let i = 0; i < 5; i += 1) {
        const res = await secondStep(challenge, wrong);
        expect(res.statusCode).toBe(401);
        expect(ErrorBody.parse(res.json())).toEqual({ message: 'That code is not right. Check your authenticator app and try again.', code: 'invalid_totp_code' });
      }
      const limited = await secondStep(challenge, totpCode(secret, Date.now() + STEP_MS));
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
      expect(ErrorBody.parse(limited.json()).message).toMatch(/^Too many wrong codes\. Please try again in 1[45] minutes\.$/);
      expect(limited.headers['x-session-action']).toBeUndefined();
    }, 'identity.login.attempted');
    expect(events.map((e) => { const { failureReason, userId } = e.payload as { failureReason: string; userId: number }; return [failureReason, userId]; })).toEqual([
      ...Array(5).fill(['invalid_totp_code', id]), ['rate_limited', id],
    ]);
  });

  it('takes each recovery code once, instead of a code', async () => {
    const { id, p, recoveryCodes } = await withTwoFactor();
    const res = await secondStep(await challengeFor(p), ` ${recoveryCodes[3]!.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
    expect(await grantOf(res)).toEqual({ action: 'grant', userId: id, role: 'user', twoFactor: true });
    const again = await secondStep(await challengeFor(p), recoveryCodes[3]!);
    expect(again.statusCode).toBe(401);
    expect(ErrorBody.parse(again.json()).code).toBe('invalid_totp_code');
    expect(await status(id)).toEqual({ enabled: true, recoveryCodesLeft: 9 });
  });

  it('refuses a forged or damaged challenge, and one of a user who turned it off since', async () => {
    const { p, secret, headers } = await withTwoFactor();
    const challenge = await challengeFor(p);
    const [body, mac] = challenge.split('.');
    const forged = `${Buffer.from(JSON.stringify({ u: 1, m: 'password', e: Date.now() + 60_000 })).toString('base64url')}.${mac}`;
    for (const bad of [forged, `${body}.x${mac}`, 'no.such-challenge']) {
      const res = await secondStep(bad, totpCode(secret, Date.now() + STEP_MS));
      expect(res.statusCode).toBe(401);
      expect(ErrorBody.parse(res.json())).toEqual({ message: 'Your sign-in took too long. Please enter your email and password again.', code: 'challenge_expired' });
    }
    expect((await post('/auth/two-factor/disable', { currentPassword: p.password, code: totpCode(secret, Date.now() + STEP_MS) }, headers)).statusCode).toBe(200);
    expect(ErrorBody.parse((await secondStep(challenge, totpCode(secret, Date.now() + 2 * STEP_MS))).json()).code).toBe('challenge_expired');
  });

  it('turns off with the current password and a code (or a recovery code), never on the session alone: the password alone signs in again', async () => {
    const { id, p, secret, headers, recoveryCodes } = await withTwoFactor();
    const code = totpCode(secret, Date.now() + STEP_MS);
    const wrong = await post('/auth/two-factor/disable', { currentPassword: 'wrong one', code }, headers);
    expect([wrong.statusCode, ErrorBody.parse(wrong.json()).code]).toEqual([401, 'wrong_password']);
    const none = await post('/auth/two-factor/disable', { code }, headers);
    expect([none.statusCode, ErrorBody.parse(none.json()).code]).toEqual([403, 'reauthentication_required']);
    const wrongCode = await post('/auth/two-factor/disable', { currentPassword: p.password, code: totpCode(secret, Date.now() + 10 * STEP_MS) }, headers);
    expect([wrongCode.statusCode, ErrorBody.parse(wrongCode.json())]).toEqual([401, {
      message: 'That code is not right. Check your authenticator app and try again.', code: 'invalid_totp_code',
      errors: [{ field: 'code', message: 'That code is not right. Check your authenticator app and try again.' }],
    }]);
    expect(await status(id)).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    const off = await post('/auth/two-factor/disable', { currentPassword: p.password, code: recoveryCodes[0] }, headers);
    expect(off.statusCode).toBe(200);
    expect(Message.parse(off.json())).toEqual({ message: 'Two-factor sign-in is off' });
    expect(await status(id)).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const login = await post('/auth/login', { email: p.email, password: p.password });
    expect(LoginResponse.parse(login.json())).toEqual({ message: 'Login successful' });
    expect(await grantOf(login)).toEqual({ action: 'grant', userId: id, role: 'user' });
    expect(ErrorBody.parse((await post('/auth/two-factor/disable', { currentPassword: p.password, code }, headers)).json()).code).toBe('two_factor_off');
  }, MANY_PASSWORDS_MS);

  it('replaces the recovery codes for the current password and a current code from the app: the old ones stop working, the new ones sign in', async () => {
    const { id, p, secret, headers, recoveryCodes: old } = await withTwoFactor();
    const renew = (body: object) => post('/auth/two-factor/recovery-codes', body, headers);
    const none = await renew({ code: totpCode(secret, Date.now() + STEP_MS) });
    expect([none.statusCode, ErrorBody.parse(none.json()).code]).toEqual([403, 'reauthentication_required']);
    const wrongPassword = await renew({ currentPassword: 'not it', code: totpCode(secret, Date.now() + STEP_MS) });
    expect([wrongPassword.statusCode, ErrorBody.parse(wrongPassword.json()).code]).toEqual([401, 'wrong_password']);
    const wrong = await renew({ currentPassword: p.password, code: totpCode(secret, Date.now() + 10 * STEP_MS) });
    expect(wrong.statusCode).toBe(401);
    expect(ErrorBody.parse(wrong.json())).toEqual({
      message: 'That code is not right. Check your authenticator app and try again.', code: 'invalid_totp_code',
      errors: [{ field: 'code', message: 'That code is not right. Check your authenticator app and try again.' }],
    });
    // A recovery code does not stand in for the app here.
    expect(ErrorBody.parse((await renew({ currentPassword: p.password, code: old[0] })).json()).code).toBe('invalid_totp_code');
    expect(await status(id)).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    const res = await renew({ currentPassword: p.password, code: totpCode(secret, Date.now() + STEP_MS) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { recoveryCodes } = TwoFactorEnabled.parse(res.json());
    expect(recoveryCodes).toHaveLength(10);
    expect(recoveryCodes.filter((c) => old.includes(c))).toEqual([]);
    expect(await status(id)).toEqual({ enabled: true, recoveryCodesLeft: 10 });

    const refused = await secondStep(await challengeFor(p), old[1]!);
    expect(refused.statusCode).toBe(401);
    expect(ErrorBody.parse(refused.json()).code).toBe('invalid_totp_code');
    const accepted = await secondStep(await challengeFor(p), recoveryCodes[1]!);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await grantOf(accepted)).toEqual({ action: 'grant', userId: id, role: 'user', twoFactor: true });
    expect(await status(id)).toEqual({ enabled: true, recoveryCodesLeft: 9 });

    // Only while two-factor sign-in is on.
    const omar = person('omar');
    const other = await registered(svc, omar);
    const off = await post('/auth/two-factor/recovery-codes', { currentPassword: omar.password, code: '123456' }, await as(svc, other));
    expect(off.statusCode).toBe(409);
    expect(ErrorBody.parse(off.json())).toEqual({ message: 'Two-factor sign-in is not on', code: 'two_factor_off' });
  }, MANY_PASSWORDS_MS);

  it('refuses a second step without a challenge or with text that cannot be one: 400', async () => {
    for (const challenge of [undefined, '', 'a\u0000b.c', 'nodot']) {
      const res = await post('/auth/login/two-factor', { challenge, code: '123456' });
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.parse(res.json())).toMatchObject({ message: 'Sign in with your password first', code: 'validation_failed' });
    }
  });

  it('answers 401 to a visitor on the signed-in routes', async () => {
    for (const url of ['/auth/two-factor/setup', '/auth/two-factor/enable', '/auth/two-factor/disable', '/auth/two-factor/recovery-codes']) {
      expect((await post(url, { password: 'x', code: '123456' })).statusCode).toBe(401);
    }
    expect((await svc.app.inject({ method: 'GET', url: '/auth/two-factor' })).statusCode).toBe(401);
  });
});
