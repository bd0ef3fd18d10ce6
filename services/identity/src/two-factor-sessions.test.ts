/**
 * What two-factor sign-in does to sessions, for the admin access production gives only to sessions signed in with
 * it: the login's second step and turning it on grant a session with the second factor (a new one, at once), and
 * turning it off grants this session again without it and ends every other one. A password alone grants none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TwoFactorSetup } from '@puente/contracts';
import { testAuth, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { totpCode } from './domain/totp.ts';
import { browser, as, person, registered, startIdentity } from './testing/helpers.ts';

const gatewayAuth = testAuth('gateway');
const STEP_MS = 30_000;

describeWithInfra(['postgres'], 'two-factor sign-in and sessions', () => {
  const db = useFreshDatabase('identity_two_factor_sessions');
  let svc: TestService;
  beforeAll(async () => { svc = await startIdentity(db.url); });
  afterAll(async () => { await svc?.stop(); });

  const post = async (url: string, payload: object, headers: Record<string, string> = {}) =>
    svc.app.inject({ method: 'POST', url, headers: { ...(await browser()), ...headers }, payload });
  const grantOf = async (res: { headers: Record<string, unknown> }) => gatewayAuth.verifySessionAction(String(res.headers['x-session-action']));

  it('grants a new session with the second factor when it is turned on, and this session without it (the others ended) when it is turned off', async () => {
    const p = person('adela');
    const id = await registered(svc, p);
    const headers = await as(svc, id);
    const { secret } = TwoFactorSetup.parse((await post('/auth/two-factor/setup', {}, headers)).json());
    // The current password under either name the settings have taken (the proof of the user).
    const proof = { currentPassword: p.password, password: p.password };
    const on = await post('/auth/two-factor/enable', { ...proof, code: totpCode(secret) }, headers);
    expect(on.statusCode, on.body).toBe(200);
    expect(await grantOf(on)).toEqual({ action: 'grant', userId: id, role: 'user', twoFactor: true });

    const off = await post('/auth/two-factor/disable', { ...proof, code: totpCode(secret, Date.now() + STEP_MS) }, headers);
    expect(off.statusCode, off.body).toBe(200);
    expect(await grantOf(off)).toEqual({ action: 'grant', userId: id, role: 'user', endOthers: true });
  });

  it('grants no second factor for a password alone', async () => {
    const p = person('bruno');
    await registered(svc, p);
    const login = await post('/auth/login', { email: p.email, password: p.password });
    expect(login.statusCode).toBe(200);
    expect(await grantOf(login)).not.toHaveProperty('twoFactor');
  });
});
