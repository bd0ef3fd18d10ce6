import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, InboxEntry, loadConfig, makeEvent, type Caller } from '@puente/platform';
import { PLATFORM_TABLES, schemaReport, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import {
  LoginAttemptList, LoginFailureStats, SignupAttemptList, SignupFailureStats, type EventEnvelope, type EventPayload,
} from '@puente/contracts';
import { AuditSettings, auditService } from './app.ts';
import { PURGE_OLD_ATTEMPTS } from './jobs/purge-old-attempts.ts';

const DAY_MS = 86_400_000;
const today = new Date();
const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
/** The date `n` days after the first day of the test data (ten days ago), as YYYY-MM-DD. */
const day = (n: number): string => new Date(midnight + (n - 10) * DAY_MS).toISOString().slice(0, 10);
const at = (n: number, time: string): string => `${day(n)}T${time}Z`;

type SignupPayload = EventPayload<'signupAttempted'>;
type LoginPayload = EventPayload<'loginAttempted'>;

function signup(email: string, occurredAt: string, more: Partial<SignupPayload> = {}): EventEnvelope {
  const event = makeEvent('signupAttempted', email, {
    email, step: 'request', status: 'pending', failureReason: null, referralCode: 'ANA12345',
    ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', ...more,
  });
  return { ...event, occurredAt };
}

function login(email: string, occurredAt: string, more: Partial<LoginPayload> = {}): EventEnvelope {
  const event = makeEvent('loginAttempted', email, {
    email, method: 'password', status: 'success', failureReason: null,
    ipAddress: '198.51.100.4', userAgent: 'Mozilla/5.0 (Macintosh)', ...more,
  });
  return { ...event, occurredAt };
}

const ADMIN: Caller = { kind: 'user', userId: 1, role: 'admin' };
const USER: Caller = { kind: 'user', userId: 2, role: 'user' };
const ROUTES = ['/admin/signup-attempts', '/admin/login-attempts', '/admin/signup-failures', '/admin/login-failures'];

describe('audit settings', () => {
  it('keeps attempts 365 days unless AUDIT_RETENTION_DAYS says otherwise', () => {
    expect(loadConfig(AuditSettings, {})).toEqual({ AUDIT_RETENTION_DAYS: 365 });
    expect(loadConfig(AuditSettings, { AUDIT_RETENTION_DAYS: '30' })).toEqual({ AUDIT_RETENTION_DAYS: 30 });
    for (const bad of ['0', '1.5', 'a year']) {
      expect(() => loadConfig(AuditSettings, { AUDIT_RETENTION_DAYS: bad })).toThrow(ConfigError);
      expect(() => loadConfig(AuditSettings, { AUDIT_RETENTION_DAYS: bad })).toThrow(/AUDIT_RETENTION_DAYS must be a whole number of days/);
    }
  });
});

describeWithInfra(['postgres'], 'audit service', () => {
  const db = useFreshDatabase('audit');
  const definition = auditService(loadConfig(AuditSettings, {}));
  let svc: TestService;
  const deadLetters: EventEnvelope[] = [];

  // Sign-ups: s2 and s3 sit on the first and last millisecond of day 1; s2's email was typed in capitals.
  const s1 = signup('ana@example.com', at(0, '09:00:00.000'));
  const s2 = signup('ANA@Example.com', at(1, '00:00:00.000'), { status: 'failed', failureReason: 'Email already registered' });
  const s3 = signup('bob@example.com', at(1, '23:59:59.999'), { step: 'verify', status: 'failed', failureReason: 'Invalid or expired token', referralCode: null });
  const s4 = signup('carl@example.com', at(2, '00:00:00.000'), { status: 'failed', failureReason: 'Email already registered', ipAddress: null, userAgent: null });
  const s5 = signup('ana@example.com', at(2, '10:00:00.000'), { step: 'verify', status: 'completed', referralCode: null });
  // Logins
  const l1 = login('ana@example.com', at(0, '08:00:00.000'));
  const l2 = login('ana@example.com', at(1, '08:00:00.000'), { status: 'failed', failureReason: 'Invalid email or password' });
  const l3 = login('Bob@Example.com', at(1, '09:00:00.000'), { status: 'failed', failureReason: 'Invalid email or password' });
  const l4 = login('bob@example.com', at(2, '09:00:00.000'), { method: 'google', status: 'failed', failureReason: null });
  const l5 = login('bob@example.com', at(2, '10:00:00.000'), { method: 'google' });

  beforeAll(async () => {
    svc = await startTestService(definition, db.url);
    await svc.bus.subscribe({ group: 'test-dead-letters', topics: ['puente.dead-letter.audit'], handle: async (e) => { deadLetters.push(e); } });
    // Out of order, and s1 and l2 twice: every attempt is stored once.
    await svc.deliver(s3, s1, s5, s2, s1, s4, l4, l2, l1, l5, l3, l2);
  });
  afterAll(async () => { await svc?.stop(); });

  const get = async (url: string, caller: Caller | null = ADMIN) =>
    svc.app.inject({ method: 'GET', url, headers: caller ? await svc.as(caller) : {} });
  const createdAts = (body: { createdAt: string }[]) => body.map((a) => a.createdAt);

  it('migrates its own schema, and only it, and reports ready', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const { schemas, tables } = await schemaReport(svc);
    expect(schemas).toEqual(['audit']);
    expect(tables).toEqual(expect.arrayContaining([...PLATFORM_TABLES, 'login_attempt', 'signup_attempt']));
  });

  it('lists every sign-up attempt once, newest first, with the fields of spec section 3', async () => {
    const res = await get('/admin/signup-attempts');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('5');
    const body = SignupAttemptList.parse(res.json());
    expect(createdAts(body)).toEqual([s5, s4, s3, s2, s1].map((e) => e.occurredAt));
    expect(body[2]).toEqual({
      id: expect.any(Number), email: 'bob@example.com', step: 'verify', status: 'failed',
      failureReason: 'Invalid or expired token', referralCode: null, ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', inputAltered: false, createdAt: s3.occurredAt,
    });
    expect(body[1]).toMatchObject({ email: 'carl@example.com', ipAddress: null, userAgent: null });
    expect(body[3]).toMatchObject({ email: 'ANA@Example.com', referralCode: 'ANA12345' });
    expect(new Set(body.map((a) => a.id)).size).toBe(5);
  });

  it('lists every login attempt once, newest first, with the fields of spec section 3', async () => {
    const res = await get('/admin/login-attempts');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('5');
    const body = LoginAttemptList.parse(res.json());
    expect(createdAts(body)).toEqual([l5, l4, l3, l2, l1].map((e) => e.occurredAt));
    expect(body[1]).toEqual({
      id: expect.any(Number), email: 'bob@example.com', method: 'google', status: 'failed', failureReason: null,
      ipAddress: '198.51.100.4', userAgent: 'Mozilla/5.0 (Macintosh)', inputAltered: false, createdAt: l4.occurredAt,
    });
    expect(body[3]).toMatchObject({ email: 'ana@example.com', method: 'password', status: 'failed', failureReason: 'Invalid email or password' });
  });

  it('never stores an event twice, even when the inbox has forgotten it', async () => {
    await svc.ctx.orm.em.fork().nativeDelete(InboxEntry, { eventId: { $in: [s1.id, l1.id] } });
    await svc.deliver(s1, l1);
    expect((await get('/admin/signup-attempts')).headers['x-total-count']).toBe('5');
    expect((await get('/admin/login-attempts')).headers['x-total-count']).toBe('5');
    expect(deadLetters).toEqual([]);
  });

  it('filters by email exactly, ignoring case and surrounding spaces', async () => {
    const ana = await get(`/admin/signup-attempts?email=${encodeURIComponent('  Ana@EXAMPLE.com ')}`);
    expect(ana.headers['x-total-count']).toBe('3');
    expect(createdAts(ana.json())).toEqual([s5, s2, s1].map((e) => e.occurredAt));
    const bob = await get('/admin/login-attempts?email=bob@example.com');
    expect(createdAts(bob.json())).toEqual([l5, l4, l3].map((e) => e.occurredAt));
    const partial = await get('/admin/signup-attempts?email=ana@example');
    expect([partial.json(), partial.headers['x-total-count']]).toEqual([[], '0']);
  });

  it('filters by date, from and to inclusive, a to date running through the end of its day', async () => {
    const oneDay = await get(`/admin/signup-attempts?from=${day(1)}&to=${day(1)}`);
    expect(createdAts(oneDay.json())).toEqual([s3, s2].map((e) => e.occurredAt));
    expect(oneDay.headers['x-total-count']).toBe('2');
    expect(createdAts((await get(`/admin/signup-attempts?from=${day(1)}`)).json())).toEqual([s5, s4, s3, s2].map((e) => e.occurredAt));
    expect(createdAts((await get(`/admin/signup-attempts?to=${day(1)}`)).json())).toEqual([s3, s2, s1].map((e) => e.occurredAt));
    expect(createdAts((await get(`/admin/login-attempts?from=${day(1)}&to=${day(1)}`)).json())).toEqual([l3, l2].map((e) => e.occurredAt));
  });

  it('takes date-times as exact instants, and combines the filters', async () => {
    expect(createdAts((await get(`/admin/signup-attempts?to=${at(2, '00:00:00.000')}`)).json()))
      .toEqual([s4, s3, s2, s1].map((e) => e.occurredAt));
    expect(createdAts((await get(`/admin/signup-attempts?from=${at(1, '00:00:00.001')}&to=${at(1, '23:59:59.999')}`)).json()))
      .toEqual([s3.occurredAt]);
    const offset = encodeURIComponent(`${day(2)}T11:00:00+01:00`); // 10:00 UTC
    expect(createdAts((await get(`/admin/signup-attempts?from=${offset}`)).json())).toEqual([s5.occurredAt]);
    expect(createdAts((await get(`/admin/signup-attempts?email=ana@example.com&from=${day(1)}&to=${day(1)}`)).json()))
      .toEqual([s2.occurredAt]);
    // Blank filters, as a form sends them, mean no filter.
    expect((await get('/admin/login-attempts?email=&from=&to=')).headers['x-total-count']).toBe('5');
  });

  it('pages with limit and offset, the total in X-Total-Count', async () => {
    const pages = await Promise.all(['limit=2', 'limit=2&offset=2', 'limit=2&offset=4', 'offset=9'].map((q) => get(`/admin/signup-attempts?${q}`)));
    expect(pages.map((p) => createdAts(p.json()))).toEqual([
      [s5.occurredAt, s4.occurredAt], [s3.occurredAt, s2.occurredAt], [s1.occurredAt], [],
    ]);
    expect(pages.map((p) => p.headers['x-total-count'])).toEqual(['5', '5', '5', '5']);
    const filtered = await get('/admin/login-attempts?email=bob@example.com&limit=1&offset=1');
    expect([createdAts(filtered.json()), filtered.headers['x-total-count']]).toEqual([[l4.occurredAt], '3']);
  });

  it('refuses bad query values with 400 and a clear message', async () => {
    const cases: [string, string][] = [
      ['/admin/signup-attempts?limit=0', 'limit must be a whole number from 1 to 500'],
      ['/admin/login-attempts?limit=501', 'limit must be a whole number from 1 to 500'],
      ['/admin/signup-attempts?offset=-1', 'offset must be a whole number of 0 or more'],
      ['/admin/login-attempts?from=yesterday', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
      ['/admin/signup-attempts?to=2025-02-30', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
      ['/admin/signup-failures?from=01/03/2025', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
      ['/admin/login-failures?to=2025-03-01T10:00:00', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
    ];
    for (const [url, message] of cases) {
      const res = await get(url);
      expect([url, res.statusCode, res.json().message]).toEqual([url, 400, message]);
    }
  });

  it('counts failed sign-ups by step and reason, most frequent first, with the same filters', async () => {
    const res = await get('/admin/signup-failures');
    expect(res.statusCode).toBe(200);
    expect(SignupFailureStats.parse(res.json())).toEqual([
      { step: 'request', failureReason: 'Email already registered', count: 2 },
      { step: 'verify', failureReason: 'Invalid or expired token', count: 1 },
    ]);
    expect((await get('/admin/signup-failures?email=CARL@example.com')).json()).toEqual([
      { step: 'request', failureReason: 'Email already registered', count: 1 },
    ]);
    expect((await get(`/admin/signup-failures?from=${at(1, '12:00:00.000')}&to=${day(1)}`)).json()).toEqual([
      { step: 'verify', failureReason: 'Invalid or expired token', count: 1 },
    ]);
    expect((await get(`/admin/signup-failures?to=${day(0)}`)).json()).toEqual([]);
  });

  it('counts failed logins by method and reason, most frequent first, with the same filters', async () => {
    const res = await get('/admin/login-failures');
    expect(res.statusCode).toBe(200);
    expect(LoginFailureStats.parse(res.json())).toEqual([
      { method: 'password', failureReason: 'Invalid email or password', count: 2 },
      { method: 'google', failureReason: null, count: 1 },
    ]);
    expect((await get('/admin/login-failures?email=ana@example.com')).json()).toEqual([
      { method: 'password', failureReason: 'Invalid email or password', count: 1 },
    ]);
  });

  it('answers 401 to visitors and other services, 403 to signed-in non-admins, on every route', async () => {
    for (const url of ROUTES) {
      const visitor = await get(url, null);
      expect([url, visitor.statusCode, visitor.json()]).toEqual([url, 401, { message: 'Authentication required', code: 'unauthorized' }]);
      const forged = await svc.app.inject({ method: 'GET', url, headers: { 'x-internal-token': 'eyJhbGciOiJIUzI1NiJ9.e30.forged' } });
      expect([url, forged.statusCode]).toEqual([url, 401]);
      expect([url, (await get(url, { kind: 'service', service: 'identity' })).statusCode]).toEqual([url, 401]);
      const user = await get(url, USER);
      expect([url, user.statusCode, user.json()]).toEqual([url, 403, { message: 'Admins only', code: 'forbidden' }]);
      expect([url, (await get(url, ADMIN)).statusCode]).toEqual([url, 200]);
    }
    // Who is asking is checked before the query: a non-admin learns nothing from a bad one.
    expect((await get('/admin/signup-attempts?limit=0', USER)).statusCode).toBe(403);
  });

  it('stores over-long fields clipped rather than failing the event', async () => {
    const long = randomBytes(6000).toString('base64url');
    const event = signup(`${long}@example.com`, at(3, '12:00:00.000'), { userAgent: long, failureReason: long, status: 'failed' });
    await svc.deliver(event);
    const [stored] = SignupAttemptList.parse((await get(`/admin/signup-attempts?from=${day(3)}`)).json());
    expect(stored).toMatchObject({ email: long.slice(0, 320), inputAltered: true, createdAt: event.occurredAt });
    expect([stored?.userAgent?.length, stored?.failureReason?.length]).toEqual([1000, 500]);
    expect(deadLetters).toEqual([]);
  });

  it('stores text PostgreSQL would refuse (NUL, lone surrogates) and control characters escaped, flagged inputAltered', async () => {
    const sent = [
      signup('nul\u0000@example.com', at(4, '12:00:00.000'), { status: 'failed', referralCode: 'CODE\uD800', userAgent: 'Agent\u001b[31m' }),
      login('lone\uDC00@example.com', at(4, '12:00:00.000'), { status: 'failed', failureReason: 'provider_error:\u0000' }),
      // Identity altered the input already: the flag is kept.
      login('clipped@example.com', at(4, '13:00:00.000'), { status: 'failed', inputAltered: true }),
    ];
    await svc.deliver(...sent);
    const [signupRow] = SignupAttemptList.parse((await get(`/admin/signup-attempts?from=${day(4)}&to=${day(4)}`)).json());
    expect(signupRow).toMatchObject({
      email: 'nul\\u0000@example.com', referralCode: 'CODE\\uD800', userAgent: 'Agent\\u001B[31m', inputAltered: true,
    });
    const logins = LoginAttemptList.parse((await get(`/admin/login-attempts?from=${day(4)}&to=${day(4)}`)).json());
    expect(logins.map((a) => [a.email, a.failureReason, a.inputAltered])).toEqual([
      ['clipped@example.com', null, true], ['lone\\uDC00@example.com', 'provider_error:\\u0000', true],
    ]);
    // Found by the email as stored.
    expect((await get(`/admin/signup-attempts?email=${encodeURIComponent('nul\\u0000@example.com')}`)).headers['x-total-count']).toBe('1');
    expect(deadLetters).toEqual([]);
  });

  it('deletes attempts older than the retention period (365 days by default) every day', async () => {
    expect(definition.schedules).toEqual([{ job: PURGE_OLD_ATTEMPTS, everyMs: DAY_MS, schedulerId: PURGE_OLD_ATTEMPTS }]);
    const dayAgo = (n: number, time: string) => `${new Date(midnight - n * DAY_MS).toISOString().slice(0, 10)}T${time}Z`;
    await svc.deliver(
      signup('old@example.com', dayAgo(367, '12:00:00.000')), signup('kept@example.com', dayAgo(364, '12:00:00.000')),
      login('old@example.com', dayAgo(367, '12:00:00.000')), login('kept@example.com', dayAgo(364, '12:00:00.000')),
    );
    const emails = async (url: string) => (await get(url)).json().map((a: { email: string }) => a.email);
    expect(await emails(`/admin/signup-attempts?to=${dayAgo(300, '00:00:00.000')}`)).toEqual(['kept@example.com', 'old@example.com']);

    const job = definition.jobs?.find((j) => j.name === PURGE_OLD_ATTEMPTS);
    if (!job) throw new Error(`the service defines no ${PURGE_OLD_ATTEMPTS} job`);
    await job.handle({}, { id: 'test', attempt: 1 });

    expect(await emails(`/admin/signup-attempts?to=${dayAgo(300, '00:00:00.000')}`)).toEqual(['kept@example.com']);
    expect(await emails(`/admin/login-attempts?to=${dayAgo(300, '00:00:00.000')}`)).toEqual(['kept@example.com']);
    // Recent attempts stay (the five of the fixtures, two escaped ones and the one kept here).
    expect((await get('/admin/login-attempts')).headers['x-total-count']).toBe('8');
  });
});
