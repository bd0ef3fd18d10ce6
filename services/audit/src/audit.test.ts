import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, InboxEntry, loadConfig, type Caller } from '@puente/platform';
import { PLATFORM_TABLES, schemaReport, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import {
  AttemptFieldLimits as L,
  ErrorBody, LoginAttemptList, LoginFailureStats, Routes, SignupAttemptList, SignupFailureStats, servicePath,
  type ApiRoute, type EventEnvelope, type LoginAttempt, type SignupAttempt,
} from '@puente/contracts';
import { AuditSettings, auditService } from './app.ts';
import { PURGE_OLD_ATTEMPTS } from './jobs/purge-old-attempts.ts';
import { DAY_MS, at, day, login, midnight, signup, type LoginPayload, type SignupPayload } from './testing/attempt-events.ts';


/** The list item an attempt event becomes, as the contract describes it (the id is the database's). */
function signupRow(e: EventEnvelope, more: Partial<SignupAttempt> = {}): SignupAttempt {
  const { email, step, status, failureReason, referralCode, ipAddress, userAgent } = e.payload as SignupPayload;
  return {
    id: expect.any(Number), email, step, status, failureReason, referralCode, ipAddress, userAgent,
    inputAltered: false, createdAt: e.occurredAt, ...more,
  };
}

function loginRow(e: EventEnvelope, more: Partial<LoginAttempt> = {}): LoginAttempt {
  const { email, method, status, failureReason, ipAddress, userAgent } = e.payload as LoginPayload;
  return { id: expect.any(Number), email, method, status, failureReason, ipAddress, userAgent, inputAltered: false, createdAt: e.occurredAt, ...more };
}

const ADMIN: Caller = { kind: 'user', userId: 1, role: 'admin' };
const USER: Caller = { kind: 'user', userId: 2, role: 'user' };
const R = Routes.audit;
const url = (route: ApiRoute, query = '') => (query ? `${servicePath(route)}?${query}` : servicePath(route));
/** The admin view's routes, each with a query it takes (the internal one for identity is tested in personal-data.test.ts). */
const ROUTES = Object.values(R).filter((route) => route.access === 'admin')
  .map((route) => url(route, route === R.attemptsPerDay ? `from=${day(0)}&to=${day(2)}` : ''));

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

  const get = async (path: string, caller: Caller | null = ADMIN) =>
    svc.app.inject({ method: 'GET', url: path, headers: caller ? await svc.as(caller) : {} });

  /** GET as the admin: 200, and the body read through the route's contract (an answer it refuses fails the test). */
  async function read<T>(contract: { parse(body: unknown): T }, route: ApiRoute, query = ''): Promise<{ body: T; total: unknown }> {
    const res = await get(url(route, query));
    expect([url(route, query), res.statusCode]).toEqual([url(route, query), 200]);
    return { body: contract.parse(res.json()), total: res.headers['x-total-count'] };
  }
  const signups = (query = '') => read(SignupAttemptList, R.signupAttempts, query);
  const logins = (query = '') => read(LoginAttemptList, R.loginAttempts, query);
  const signupFailures = async (query = '') => (await read(SignupFailureStats, R.signupFailures, query)).body;
  const loginFailures = async (query = '') => (await read(LoginFailureStats, R.loginFailures, query)).body;
  const createdAts = ({ body }: { body: { createdAt: string }[] }) => body.map((a) => a.createdAt);
  const occurred = (...events: EventEnvelope[]) => events.map((e) => e.occurredAt);

  it('migrates its own schema, and only it, and reports ready', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const { schemas, tables } = await schemaReport(svc);
    expect(schemas).toEqual(['audit']);
    expect(tables).toEqual(expect.arrayContaining([...PLATFORM_TABLES, 'login_attempt', 'signup_attempt']));
  });

  it('has entities that match its committed migrations and snapshot (no migration pending)', async () => {
    const { orm } = svc.ctx;
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    expect(await orm.migrator.checkSchema()).toBe(false);
  });

  it('serves the email filter (a LIKE with a leading %) from trigram indexes', async () => {
    for (const table of ['signup_attempt', 'login_attempt']) {
      const plan = await svc.ctx.orm.em.fork().transactional(async (em) => {
        await em.execute('set local enable_seqscan = off'); // a tiny table would be scanned anyway
        return em.execute<{ 'QUERY PLAN': string }[]>(`explain select id from "audit"."${table}" where email_key like '%example%'`);
      });
      expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain(`Bitmap Index Scan on ${table}_email_key_trgm_index`);
    }
  });

  it('lists every sign-up attempt once, newest first, with the fields of spec section 3', async () => {
    const { body, total } = await signups();
    expect(total).toBe('5');
    // Each as sent: s4 without IP address or user agent, s2's email with its capitals.
    expect(body).toEqual([s5, s4, s3, s2, s1].map((e) => signupRow(e)));
    expect(new Set(body.map((a) => a.id)).size).toBe(5);
  });

  it('lists every login attempt once, newest first, with the fields of spec section 3', async () => {
    const { body, total } = await logins();
    expect(total).toBe('5');
    expect(body).toEqual([l5, l4, l3, l2, l1].map((e) => loginRow(e)));
    expect(new Set(body.map((a) => a.id)).size).toBe(5);
  });

  it('never stores an event twice, even when the inbox has forgotten it', async () => {
    await svc.ctx.orm.em.fork().nativeDelete(InboxEntry, { eventId: { $in: [s1.id, l1.id] } });
    await svc.deliver(s1, l1);
    expect((await signups()).total).toBe('5');
    expect((await logins()).total).toBe('5');
    expect(deadLetters).toEqual([]);
  });

  it('filters by a part of the email, ignoring case and surrounding spaces', async () => {
    const ana = await signups(`email=${encodeURIComponent('  Ana@EXAMPLE.com ')}`);
    expect([createdAts(ana), ana.total]).toEqual([occurred(s5, s2, s1), '3']);
    expect(createdAts(await logins('email=bob@example.com'))).toEqual(occurred(l5, l4, l3));
    // A part: the start, the middle (a surname, a provider) or the end of the address, in any case.
    expect(createdAts(await signups('email=ana@example'))).toEqual(occurred(s5, s2, s1));
    expect(createdAts(await logins('email=OB@'))).toEqual(occurred(l5, l4, l3));
    expect(createdAts(await signups('email=ARL'))).toEqual(occurred(s4));
    expect((await logins('email=EXAMPLE.COM')).total).toBe('5');
    expect(await signups('email=anna')).toEqual({ body: [], total: '0' });
  });

  it('filters by date, from and to inclusive, a to date running through the end of its day', async () => {
    const oneDay = await signups(`from=${day(1)}&to=${day(1)}`);
    expect([createdAts(oneDay), oneDay.total]).toEqual([occurred(s3, s2), '2']);
    expect(createdAts(await signups(`from=${day(1)}`))).toEqual(occurred(s5, s4, s3, s2));
    expect(createdAts(await signups(`to=${day(1)}`))).toEqual(occurred(s3, s2, s1));
    expect(createdAts(await logins(`from=${day(1)}&to=${day(1)}`))).toEqual(occurred(l3, l2));
  });

  it('takes date-times as exact instants, and combines the filters', async () => {
    expect(createdAts(await signups(`to=${at(2, '00:00:00.000')}`))).toEqual(occurred(s4, s3, s2, s1));
    expect(createdAts(await signups(`from=${at(1, '00:00:00.001')}&to=${at(1, '23:59:59.999')}`))).toEqual(occurred(s3));
    const offset = encodeURIComponent(`${day(2)}T11:00:00+01:00`); // 10:00 UTC
    expect(createdAts(await signups(`from=${offset}`))).toEqual(occurred(s5));
    expect(createdAts(await signups(`email=ana@example.com&from=${day(1)}&to=${day(1)}`))).toEqual(occurred(s2));
    // Blank filters, as a form sends them, mean no filter.
    expect((await logins('email=&from=&to=')).total).toBe('5');
  });

  it('pages with limit and offset, the total in X-Total-Count', async () => {
    const pages = await Promise.all(['limit=2', 'limit=2&offset=2', 'limit=2&offset=4', 'offset=9'].map((q) => signups(q)));
    expect(pages.map(createdAts)).toEqual([occurred(s5, s4), occurred(s3, s2), occurred(s1), []]);
    expect(pages.map((p) => p.total)).toEqual(['5', '5', '5', '5']);
    const filtered = await logins('email=bob@example.com&limit=1&offset=1');
    expect([createdAts(filtered), filtered.total]).toEqual([occurred(l4), '3']);
  });

  it('refuses bad query values with 400 and a clear message', async () => {
    const cases: [ApiRoute, string, string][] = [
      [R.signupAttempts, 'limit=0', 'limit must be a whole number from 1 to 500'],
      [R.loginAttempts, 'limit=501', 'limit must be a whole number from 1 to 500'],
      [R.signupAttempts, 'offset=-1', 'offset must be a whole number of 0 or more'],
      [R.loginAttempts, 'from=yesterday', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
      [R.signupAttempts, 'to=2025-02-30', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
      [R.signupFailures, 'from=01/03/2025', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
      [R.loginFailures, 'to=2025-03-01T10:00:00', 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times'],
    ];
    for (const [route, query, message] of cases) {
      const res = await get(url(route, query));
      const body = ErrorBody.parse(res.json());
      expect([url(route, query), res.statusCode, body.message, body.code]).toEqual([url(route, query), 400, message, 'validation_failed']);
    }
  });

  it('counts failed sign-ups by step and reason, most frequent first, with the same filters', async () => {
    expect(await signupFailures()).toEqual([
      { step: 'request', failureReason: 'Email already registered', count: 2 },
      { step: 'verify', failureReason: 'Invalid or expired token', count: 1 },
    ]);
    expect(await signupFailures('email=CARL@example.com')).toEqual([
      { step: 'request', failureReason: 'Email already registered', count: 1 },
    ]);
    expect(await signupFailures(`from=${at(1, '12:00:00.000')}&to=${day(1)}`)).toEqual([
      { step: 'verify', failureReason: 'Invalid or expired token', count: 1 },
    ]);
    expect(await signupFailures(`to=${day(0)}`)).toEqual([]);
  });

  it('counts failed logins by method and reason, most frequent first, with the same filters', async () => {
    expect(await loginFailures()).toEqual([
      { method: 'password', failureReason: 'Invalid email or password', count: 2 },
      { method: 'google', failureReason: null, count: 1 },
    ]);
    expect(await loginFailures('email=ana@example.com')).toEqual([
      { method: 'password', failureReason: 'Invalid email or password', count: 1 },
    ]);
  });

  it('answers 401 to visitors and other services, 403 to signed-in non-admins, on every admin route', async () => {
    expect(ROUTES).toHaveLength(8);
    for (const path of ROUTES) {
      const visitor = await get(path, null);
      expect([path, visitor.statusCode, ErrorBody.parse(visitor.json())]).toEqual([path, 401, { message: 'Authentication required', code: 'unauthorized' }]);
      const forged = await svc.app.inject({ method: 'GET', url: path, headers: { 'x-internal-token': 'eyJhbGciOiJIUzI1NiJ9.e30.forged' } });
      expect([path, forged.statusCode]).toEqual([path, 401]);
      expect([path, (await get(path, { kind: 'service', service: 'identity' })).statusCode]).toEqual([path, 401]);
      const user = await get(path, USER);
      expect([path, user.statusCode, ErrorBody.parse(user.json())]).toEqual([path, 403, { message: 'Admins only', code: 'forbidden' }]);
      expect([path, (await get(path, ADMIN)).statusCode]).toEqual([path, 200]);
    }
    // Who is asking is checked before the query: a non-admin learns nothing from a bad one.
    expect((await get(url(R.signupAttempts, 'limit=0'), USER)).statusCode).toBe(403);
  });

  it('stores over-long fields clipped rather than failing the event', async () => {
    const long = randomBytes(6000).toString('base64url');
    const event = signup(`${long}@example.com`, at(3, '12:00:00.000'), { userAgent: long, failureReason: long, status: 'failed' });
    await svc.deliver(event);
    expect((await signups(`from=${day(3)}&to=${day(3)}`)).body).toEqual([signupRow(event, {
      email: long.slice(0, L.email), failureReason: long.slice(0, L.failureReason), userAgent: long.slice(0, L.userAgent), inputAltered: true,
    })]);
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
    expect((await signups(`from=${day(4)}&to=${day(4)}`)).body).toEqual([signupRow(sent[0]!, {
      email: 'nul\\u0000@example.com', referralCode: 'CODE\\uD800', userAgent: 'Agent\\u001B[31m', inputAltered: true,
    })]);
    expect((await logins(`from=${day(4)}&to=${day(4)}`)).body).toEqual([
      loginRow(sent[2]!, { inputAltered: true }),
      loginRow(sent[1]!, { email: 'lone\\uDC00@example.com', failureReason: 'provider_error:\\u0000', inputAltered: true }),
    ]);
    // Found by the email as stored.
    expect((await signups(`email=${encodeURIComponent('nul\\u0000@example.com')}`)).total).toBe('1');
    expect(deadLetters).toEqual([]);
  });

  it('takes %, _ and \\ in the email filter literally, not as LIKE\'s wildcards', async () => {
    const sent = [
      signup('a_b%c@example.com', at(5, '12:00:00.000')),
      signup('AxbYc@example.com', at(5, '13:00:00.000')),
      signup('back\\slash@example.com', at(5, '14:00:00.000')),
    ];
    await svc.deliver(...sent);
    const emails = async (part: string) =>
      (await signups(`email=${encodeURIComponent(part)}&from=${day(5)}&to=${day(5)}`)).body.map((a) => a.email);
    expect(await emails('_B%C')).toEqual(['a_b%c@example.com']);
    expect(await emails('%')).toEqual(['a_b%c@example.com']);
    expect(await emails('a_b')).toEqual(['a_b%c@example.com']);
    expect(await emails('\\')).toEqual(['back\\slash@example.com']);
    expect(await emails('XBY')).toEqual(['AxbYc@example.com']);
    expect(await emails('@')).toHaveLength(3);
  });

  it('deletes attempts older than the retention period (365 days by default) every day', async () => {
    expect(definition.schedules).toEqual([{ job: PURGE_OLD_ATTEMPTS, everyMs: DAY_MS, schedulerId: PURGE_OLD_ATTEMPTS }]);
    const dayAgo = (n: number, time: string) => `${new Date(midnight - n * DAY_MS).toISOString().slice(0, 10)}T${time}Z`;
    await svc.deliver(
      signup('old@example.com', dayAgo(367, '12:00:00.000')), signup('kept@example.com', dayAgo(364, '12:00:00.000')),
      login('old@example.com', dayAgo(367, '12:00:00.000')), login('kept@example.com', dayAgo(364, '12:00:00.000')),
    );
    const emails = async (rows: Promise<{ body: { email: string }[] }>) => (await rows).body.map((a) => a.email);
    const old = `to=${dayAgo(300, '00:00:00.000')}`;
    expect(await emails(signups(old))).toEqual(['kept@example.com', 'old@example.com']);

    // Through the service's own queue: the runner hands the job the service's context.
    await svc.ctx.jobs.enqueue(PURGE_OLD_ATTEMPTS, {});
    await expect.poll(() => emails(signups(old))).toEqual(['kept@example.com']);

    expect(await emails(logins(old))).toEqual(['kept@example.com']);
    // Recent attempts stay (the five of the fixtures, two escaped ones and the one kept here).
    expect((await logins()).total).toBe('8');
    expect(await svc.ctx.jobs.listFailed()).toEqual([]);
  });
});
