/**
 * Identity's own limit on wrong passwords per account (LOGIN_ACCOUNT_LIMIT), for a caller that reaches it without
 * the gateway and its rate limits: every request here is sent to identity directly.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { ErrorBody, type EventPayload } from '@puente/contracts';
import { ConfigError, loadConfig } from '@puente/platform';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { IdentitySettings, resolveConfig } from './app.ts';
import { browser, eventsDuring, person, requestSignup, startIdentity, type IdentityTestService, type Person } from './testing/helpers.ts';

const LIMITED = { message: 'Too many failed login attempts for this account. Please try again in 15 minutes.', code: 'rate_limited' };

describeWithInfra(['postgres'], 'failed logins per account', () => {
  const db = useFreshDatabase('identity_login_limit');
  let svc: IdentityTestService;
  beforeAll(async () => { svc = await startIdentity(db.url, { LOGIN_ACCOUNT_LIMIT: '3/15m' }); });
  afterAll(async () => { await svc?.stop(); });
  afterEach(() => { vi.useRealTimers(); });

  const loginAs = async (p: Person, password = p.password) =>
    svc.app.inject({ method: 'POST', url: '/auth/login', headers: await browser(), payload: { email: p.email, password } });
  /** Someone who signed up and verified their email. */
  const member = async (name: string): Promise<Person> => {
    const p = person(name);
    const verified = await svc.app.inject({ method: 'POST', url: '/signup/verify', payload: { token: await requestSignup(svc, p) } });
    expect(verified.statusCode).toBe(200);
    return p;
  };

  it('refuses an account with 429 after LOGIN_ACCOUNT_LIMIT wrong passwords, the right one too; another account still logs in', async () => {
    const [ana, bea] = [await member('ana'), await member('bea')];
    const events = await eventsDuring(svc, async () => {
      for (let i = 0; i < 3; i++) expect((await loginAs(ana, `guess ${i}`)).statusCode).toBe(401);
      for (const password of ['guess 3', ana.password]) {
        const refused = await loginAs(ana, password);
        expect(refused.statusCode).toBe(429);
        expect(ErrorBody.parse(refused.json())).toEqual(LIMITED);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(850);
        expect(refused.headers['x-session-action']).toBeUndefined();
      }
    }, 'identity.login.attempted');
    // The admin's login attempts show the refusals.
    expect(events.map((e) => (e.payload as EventPayload<'loginAttempted'>).failureReason)).toEqual(['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'rate_limited', 'rate_limited']);

    expect((await loginAs(bea, 'a guess')).statusCode).toBe(401);
    expect((await loginAs(bea)).statusCode).toBe(200);
  });

  it('counts wrong passwords sent together one after the other: of 10 at once, 3 get 401 and 7 get 429', async () => {
    const cy = await member('cy');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => loginAs(cy, `guess ${i}`)));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(7);
    expect((await loginAs(cy)).statusCode).toBe(429);
  });

  it('does not forgive the failures when the right password comes in between', async () => {
    const dan = await member('dan');
    const statuses = [];
    for (const password of ['guess 1', 'guess 2', dan.password, 'guess 3', dan.password]) statuses.push((await loginAs(dan, password)).statusCode);
    expect(statuses).toEqual([401, 401, 200, 401, 429]);
  });

  it('lets the account log in again once the window has passed', async () => {
    const eve = await member('eve');
    for (let i = 0; i < 3; i++) expect((await loginAs(eve, `guess ${i}`)).statusCode).toBe(401);
    expect((await loginAs(eve)).statusCode).toBe(429);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 15 * 60_000 + 1000);
    expect((await loginAs(eve, 'guess 4')).statusCode).toBe(401); // a new window, counting from 1
    expect((await loginAs(eve)).statusCode).toBe(200);
  });
});

it('reads LOGIN_ACCOUNT_LIMIT as max/window, 120 an hour by default', () => {
  const limit = (env: Record<string, string>) => resolveConfig(loadConfig(IdentitySettings, env)).loginAccountLimit;
  expect(limit({})).toEqual({ max: 120, windowMs: 3_600_000 });
  expect(limit({ LOGIN_ACCOUNT_LIMIT: '20/15m' })).toEqual({ max: 20, windowMs: 900_000 });
  expect(() => limit({ LOGIN_ACCOUNT_LIMIT: '20 per hour' })).toThrow(ConfigError);
});
