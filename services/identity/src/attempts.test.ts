/**
 * Every attempt is recorded, whatever the client sent. (Once, an email over 255 characters, a NUL or a lone
 * surrogate made the outbox refuse the event and the attempt was lost.) That the audit service stores such events
 * is tested in services/audit; the whole trail, browser to admin view, in infra/hostile-input.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, type EventPayload } from '@puente/contracts';
import type { Caller } from '@puente/platform';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ADMIN, BROWSER_SEEN, browser, eventsDuring, startIdentity, type IdentityTestService } from './testing/helpers.ts';

describeWithInfra(['postgres'], 'attempts are recorded whatever the client sent', () => {
  const db = useFreshDatabase('identity_attempts');
  let identity: IdentityTestService;
  beforeAll(async () => { identity = await startIdentity(db.url); });
  afterAll(async () => { await identity?.stop(); });

  const ADMIN_CALLER: Caller = { kind: 'user', userId: 1, role: 'admin' };
  const payloadsOf = async <N extends 'loginAttempted' | 'signupAttempted'>(type: string, action: () => Promise<unknown>) =>
    (await eventsDuring(identity, action, type)).map((e) => e.payload as EventPayload<N>);
  const post = async (url: string, payload: Record<string, unknown>) => identity.app.inject({ method: 'POST', url, headers: await browser(), payload });

  // 300 characters; a NUL (PostgreSQL's jsonb refuses \u0000); a lone surrogate (invalid Unicode).
  const LONG = `${'a'.repeat(288)}@puente.test`;
  const NUL = 'nul\u0000@puente.test';
  const LONE = 'lone\uD800@puente.test';
  const STORED = { [LONG]: 'a'.repeat(254), [NUL]: 'nul\\u0000@puente.test', [LONE]: 'lone\\uD800@puente.test' };

  it('records logins with a 300-character email, a NUL or a lone surrogate, flagged inputAltered', async () => {
    const attempts = await payloadsOf<'loginAttempted'>('identity.login.attempted', async () => {
      for (const email of [LONG, NUL, LONE]) {
        expect((await post('/auth/login', { email, password: 'some password' })).statusCode).toBe(400);
      }
      expect((await post('/auth/login', { email: 'clean@puente.test', password: 'some password' })).statusCode).toBe(401);
    });
    for (const [sent, stored] of Object.entries(STORED)) {
      expect([sent.length, attempts.filter((a) => a.email === stored)]).toEqual([sent.length, [expect.objectContaining({
        method: 'password', status: 'failed', failureReason: 'validation', ipAddress: '203.0.113.9', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: true,
      })]]);
    }
    expect(attempts.find((a) => a.email === 'clean@puente.test')).toMatchObject({ failureReason: 'invalid_credentials', inputAltered: false });
  });

  it("records the browser's address the gateway tells of only on the gateway's call: a direct caller is recorded at its own", async () => {
    const attempts = await payloadsOf<'loginAttempted'>('identity.login.attempted', async () => {
      const direct = { ...BROWSER_SEEN, 'x-client-ip': '198.51.100.66' };
      const res = await identity.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: '10.1.2.3', headers: direct, payload: { email: 'direct@puente.test', password: 'x' } });
      expect(res.statusCode).toBe(401);
      expect((await post('/auth/login', { email: 'gateway@puente.test', password: 'x' })).statusCode).toBe(401);
    });
    expect(attempts.map((a) => [a.email, a.ipAddress])).toEqual([['direct@puente.test', '10.1.2.3'], ['gateway@puente.test', '203.0.113.9']]);
  });

  it('records, once each, a login whose body cannot be read: malformed JSON, or JSON that is not an object', async () => {
    const attempts = await payloadsOf<'loginAttempted'>('identity.login.attempted', async () => {
      for (const body of ['{"email": ', 'null']) {
        const res = await identity.app.inject({ method: 'POST', url: '/auth/login', headers: { ...(await browser()), 'content-type': 'application/json' }, payload: body });
        expect(res.statusCode).toBe(400);
      }
    });
    expect(attempts).toEqual(Array(2).fill(expect.objectContaining({ email: '', method: 'password', status: 'failed', failureReason: 'bad_request' })));
  });

  it('records sign-ups with such an email or referral code, flagged inputAltered', async () => {
    const form = { password: 'correct horse battery', firstName: 'Ana', lastName: 'Rojas', referralCode: ADMIN.referralCode };
    const attempts = await payloadsOf<'signupAttempted'>('identity.signup.attempted', async () => {
      for (const email of [LONG, NUL, LONE]) {
        expect((await post('/signup/request', { ...form, email })).statusCode).toBe(400);
      }
      expect((await post('/signup/request', { ...form, email: 'code@puente.test', referralCode: 'FIRST\u0000CODE' })).statusCode).toBe(400);
    });
    for (const stored of Object.values(STORED)) {
      expect(attempts.filter((a) => a.email === stored)).toEqual([expect.objectContaining({
        step: 'request', status: 'failed', failureReason: 'validation', referralCode: ADMIN.referralCode, inputAltered: true,
      })]);
    }
    expect(attempts.find((a) => a.email === 'code@puente.test')).toMatchObject({ referralCode: 'FIRST\\u0000CODE', inputAltered: true });
  });

  describe('POST /internal/login-refused (the gateway refused a login with 429)', () => {
    const refused = async (caller: Caller | null, payload?: unknown) => identity.app.inject({
      method: 'POST', url: '/internal/login-refused',
      headers: {
        ...BROWSER_SEEN, 'x-client-ip': '198.51.100.23',
        ...(caller ? await identity.as(caller) : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    const GATEWAY: Caller = { kind: 'service', service: 'gateway' };

    it('records a rate-limited login attempt for the gateway, with the browser IP and user agent; 204', async () => {
      const events = await eventsDuring(identity, async () => {
        const res = await refused(GATEWAY, { email: ' Mallory@Puente.test ' });
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
      }, 'identity.login.attempted');
      expect(events.map((e) => e.payload)).toEqual([{
        email: 'mallory@puente.test', method: 'password', status: 'failed', failureReason: 'rate_limited',
        ipAddress: '198.51.100.23', userAgent: 'Mozilla/5.0 (Vitest)', inputAltered: false,
      }]);
    });

    it('records whatever email was typed, made storable, and "" for one that is not a string', async () => {
      const events = await eventsDuring(identity, async () => {
        for (const payload of [{ email: NUL }, { email: 42 }, {}, undefined]) {
          expect((await refused(GATEWAY, payload)).statusCode).toBe(204);
        }
      }, 'identity.login.attempted');
      // Events of different emails travel on different partitions: compare them in any order.
      const payloads = events.map((e) => e.payload as EventPayload<'loginAttempted'>);
      expect(payloads.map((p) => [p.email, p.inputAltered]).sort()).toEqual([
        ['', false], ['', false], ['', false], ['nul\\u0000@puente.test', true],
      ]);
      expect(payloads.every((p) => p.failureReason === 'rate_limited')).toBe(true);
    });

    it('answers 403 to browsers, users, admins and other services, and records nothing', async () => {
      const events = await eventsDuring(identity, async () => {
        for (const caller of [null, { kind: 'user', userId: 1, role: 'user' }, ADMIN_CALLER, { kind: 'service', service: 'accounts' }] as (Caller | null)[]) {
          const res = await refused(caller, { email: 'mallory@puente.test' });
          expect([caller, res.statusCode, ErrorBody.parse(res.json()).code]).toEqual([caller, 403, 'forbidden']);
        }
      }, 'identity.login.attempted');
      expect(events).toEqual([]);
    });
  });
});
