/** The profile's login history: the signed-in user's own login attempts, and nobody else's. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, OwnLoginHistory, type EventPayload } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AuditSettings, auditService } from './app.ts';

const ANA = 7;
const BOB = 8;
const browser = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', failureReason: null };
const login = (minutesAgo: number, email: string, more: Partial<EventPayload<'loginAttempted'>>) => ({
  ...makeEvent('loginAttempted', email, { email, method: 'password', status: 'success', ...browser, ...more }),
  occurredAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
});

describeWithInfra(['postgres'], 'the signed-in user\'s login history', () => {
  const db = useFreshDatabase('audit_login_history');
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(auditService(AuditSettings.parse({})), db.url);
    await svc.deliver(
      login(6, 'ana@puente.test', { userId: ANA }),
      login(5, 'bob@puente.test', { userId: BOB }),
      // Someone typing her email from elsewhere with a wrong password, then her wrong authenticator code.
      login(4, 'ANA@puente.test', { status: 'failed', failureReason: 'invalid_credentials', ipAddress: '198.51.100.66' }),
      login(3, 'ana@puente.test', { status: 'failed', failureReason: 'invalid_totp_code', userId: ANA }),
      login(2, 'bob@puente.test', { status: 'failed', failureReason: 'invalid_credentials' }),
      login(1, 'ana@puente.test', { method: 'google', userId: ANA }),
    );
  });
  afterAll(async () => { await svc?.stop(); });

  const history = async (userId: number | null, query = '') => svc.app.inject({
    method: 'GET', url: `/users/me/login-history${query}`,
    headers: userId === null ? {} : await svc.as({ kind: 'user', userId, role: 'user', sessionId: 's' }),
  });

  it('lists the attempts on the caller\'s account, newest first, with time, IP, browser and outcome, and no one else\'s', async () => {
    const res = await history(ANA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('4');
    const attempts = OwnLoginHistory.parse(res.json());
    expect(attempts.map((a) => [a.method, a.status, a.failureReason, a.ipAddress])).toEqual([
      ['google', 'success', null, '203.0.113.7'],
      ['password', 'failed', 'invalid_totp_code', '203.0.113.7'],
      ['password', 'failed', 'invalid_credentials', '198.51.100.66'],
      ['password', 'success', null, '203.0.113.7'],
    ]);
    expect(Object.keys(res.json<object[]>()[0]!).sort()).toEqual(Object.keys(OwnLoginHistory.element.shape).sort());
    expect(attempts[0]).toMatchObject({ userAgent: browser.userAgent, createdAt: expect.stringMatching(/Z$/) });
    expect(res.body).not.toContain('bob@');

    const bob = OwnLoginHistory.parse((await history(BOB)).json());
    expect(bob.map((a) => a.failureReason)).toEqual(['invalid_credentials', null]);
    expect(OwnLoginHistory.parse((await history(99)).json())).toEqual([]);
  });

  it('pages with limit and offset (X-Total-Count the whole), and refuses a bad limit', async () => {
    const page = await history(ANA, '?limit=2&offset=1');
    expect(page.headers['x-total-count']).toBe('4');
    expect(OwnLoginHistory.parse(page.json()).map((a) => a.failureReason)).toEqual(['invalid_totp_code', 'invalid_credentials']);
    const bad = await history(ANA, '?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(ErrorBody.parse(bad.json()).code).toBe('validation_failed');
  });

  it('answers 401 to a visitor', async () => {
    const res = await history(null);
    expect(res.statusCode).toBe(401);
    expect(ErrorBody.parse(res.json()).code).toBe('unauthorized');
  });
});
