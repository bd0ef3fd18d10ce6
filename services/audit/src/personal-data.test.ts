/**
 * A user's sign-up and login attempts: in their data download (the attempts made with any email their account used),
 * and anonymised once they delete their account, the admin's counts unchanged.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AuditPersonalData, DeletedUser, LoginAttemptList, LoginFailureStats, SignupFailureStats, type EventPayload } from '@puente/contracts';
import { makeEvent, type Caller } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AuditSettings, auditService } from './app.ts';

const ANA = 7;
const browser = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', failureReason: null };
const signup = (email: string, more: Partial<EventPayload<'signupAttempted'>>) =>
  makeEvent('signupAttempted', email, { email, step: 'request', status: 'pending', referralCode: 'ANA12345', ...browser, ...more });
const login = (email: string, more: Partial<EventPayload<'loginAttempted'>>) =>
  makeEvent('loginAttempted', email, { email, method: 'password', status: 'success', ...browser, ...more });
/** Events of different emails are applied side by side: their times, not their order of delivery, say which is newer. */
const minutesAgo = (minutes: number, event: ReturnType<typeof makeEvent>) => ({ ...event, occurredAt: new Date(Date.now() - minutes * 60_000).toISOString() });

describeWithInfra(['postgres'], 'a user\'s attempts: downloaded, and anonymised with their account', () => {
  const db = useFreshDatabase('audit_personal_data');
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(auditService(AuditSettings.parse({})), db.url);
    await svc.deliver(
      minutesAgo(5, signup('ana@puente.test', {})),
      minutesAgo(4, signup('ana@puente.test', { step: 'verify', status: 'completed', userId: ANA })),
      minutesAgo(3, login('ana@puente.test', { userId: ANA })),
      // Someone typing her email, in another case, with the wrong password: an attempt on her account.
      minutesAgo(2, login('Ana@Puente.test', { status: 'failed', failureReason: 'invalid_credentials', ipAddress: '198.51.100.66' })),
      minutesAgo(1, login('bob@puente.test', { status: 'failed', failureReason: 'invalid_credentials' })),
    );
  });
  afterAll(async () => { await svc?.stop(); });

  const personalData = async (userId: number, caller: Caller = { kind: 'service', service: 'identity' }) =>
    svc.app.inject({ method: 'GET', url: `/internal/personal-data/attempts?userId=${userId}`, headers: await svc.as(caller) });
  const asAdmin = async (url: string) => (await svc.app.inject({ method: 'GET', url, headers: await svc.as({ kind: 'user', userId: 1, role: 'admin' }) })).json<unknown>();
  const stats = async () => [SignupFailureStats.parse(await asAdmin('/admin/signup-failures')), LoginFailureStats.parse(await asAdmin('/admin/login-failures')),
    LoginAttemptList.parse(await asAdmin('/admin/login-attempts')).length];

  it('answers identity with the attempts made with the user\'s emails, newest first, and nobody else', async () => {
    const res = await personalData(ANA);
    expect(res.statusCode).toBe(200);
    const data = AuditPersonalData.parse(res.json());
    expect(data.signupAttempts.map((a) => [a.step, a.status, a.email])).toEqual([['verify', 'completed', 'ana@puente.test'], ['request', 'pending', 'ana@puente.test']]);
    expect(data.loginAttempts.map((a) => [a.status, a.email, a.ipAddress])).toEqual([['failed', 'Ana@Puente.test', '198.51.100.66'], ['success', 'ana@puente.test', '203.0.113.7']]);
    expect(AuditPersonalData.parse((await personalData(99)).json())).toEqual({ signupAttempts: [], loginAttempts: [] });
    expect((await personalData(ANA, { kind: 'service', service: 'exchange' })).statusCode).toBe(403);
  });

  it('keeps a deleted user\'s attempts counted, with no email, IP, user agent or referral code left, once however often delivered', async () => {
    const counted = await stats();
    const deleted = makeEvent('userDeleted', ANA, { userId: ANA });
    await svc.deliver(deleted, deleted);

    const data = AuditPersonalData.parse((await personalData(ANA)).json());
    const gone = { email: DeletedUser.email(ANA), ipAddress: null, userAgent: null };
    expect(data.signupAttempts).toEqual(Array(2).fill(expect.objectContaining({ ...gone, referralCode: null })));
    expect(data.loginAttempts).toEqual(Array(2).fill(expect.objectContaining(gone)));
    expect(await stats()).toEqual(counted);
    expect(LoginAttemptList.parse(await asAdmin('/admin/login-attempts?email=ana@puente.test'))).toEqual([]);
    expect(LoginAttemptList.parse(await asAdmin('/admin/login-attempts?email=bob@puente.test'))).toEqual([
      expect.objectContaining({ email: 'bob@puente.test', ipAddress: browser.ipAddress, userAgent: browser.userAgent }),
    ]);
  });
});
