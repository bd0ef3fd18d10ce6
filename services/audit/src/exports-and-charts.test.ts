/**
 * The admin page's CSV exports of the attempt lists (the list's filters, fields and order, streamed a page at a
 * time, escaped for spreadsheets) and the sign-ups and logins per day of its charts. Who may call is checked with
 * the other admin routes in audit.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig, type Caller } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import {
  AttemptsPerDay, ErrorBody, LoginAttemptCsvColumns, LoginAttemptList, Routes, SignupAttemptCsvColumns, SignupAttemptList,
  servicePath, type ApiRoute,
} from '@puente/contracts';
import { AuditSettings, auditService } from './app.ts';
import { LoginAttempt } from './domain/attempts.ts';
import { EXPORT_PAGE_SIZE } from './routes/export.ts';
import { at, day, login, signup } from './testing/attempt-events.ts';
import { parse as parseCsv } from 'csv-parse/sync';

const ADMIN: Caller = { kind: 'user', userId: 1, role: 'admin' };
const R = Routes.audit;
const url = (route: ApiRoute, query = '') => (query ? `${servicePath(route)}?${query}` : servicePath(route));

/**
 * What a spreadsheet would run: a formula in the email; and a reason with quotes and a comma (line breaks never reach
 * a stored attempt: control characters are stored escaped, so domain/csv.test.ts covers them).
 */
const FORMULA_EMAIL = '=HYPERLINK("http://evil.example","click")';
const AWKWARD_REASON = 'Email already registered, "twice"';

describeWithInfra(['postgres'], 'audit: CSV exports and attempts per day', () => {
  const db = useFreshDatabase('audit_exports');
  let svc: TestService;

  const s1 = signup('ana@example.com', at(0, '09:00:00.000'));
  const s2 = signup(FORMULA_EMAIL, at(1, '10:00:00.000'), { status: 'failed', failureReason: AWKWARD_REASON, userAgent: '+cmd|calc', ipAddress: '-1+1' });
  const s3 = signup('ana@example.com', at(1, '11:00:00.000'), { step: 'verify', status: 'completed', referralCode: null, ipAddress: null });
  const s4 = signup('bob@example.com', at(2, '23:59:59.999'), { status: 'failed', failureReason: 'Invalid referral code', referralCode: '@SUM(A1)' });
  const l1 = login('ana@example.com', at(0, '08:00:00.000'));
  const l2 = login('ana@example.com', at(1, '08:00:00.000'), { status: 'failed', failureReason: 'Invalid email or password' });
  const l3 = login('Bob@Example.com', at(2, '00:00:00.000'), { method: 'google', status: 'failed', failureReason: null });

  beforeAll(async () => {
    svc = await startTestService(auditService(loadConfig(AuditSettings, {})), db.url);
    await svc.deliver(s1, s2, s3, s4, l1, l2, l3);
  });
  afterAll(async () => { await svc?.stop(); });

  const get = async (path: string) => svc.app.inject({ method: 'GET', url: path, headers: await svc.as(ADMIN) });
  async function exported(route: ApiRoute, query = '') {
    const res = await get(url(route, query));
    expect([url(route, query), res.statusCode], res.body).toEqual([url(route, query), 200]);
    return res;
  }
  /** The JSON list's items as the CSV writes them: every field as text, null as an empty cell. */
  const asCells = (items: object[], columns: readonly string[]) =>
    items.map((item) => columns.map((c) => { const v = (item as Record<string, unknown>)[c]; return v === null ? '' : String(v); }));

  it('exports the filtered sign-up attempts as a CSV file: the list\'s fields and rows, newest first', async () => {
    const res = await exported(R.signupAttemptsExport, 'email=ANA@example.com');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="signup-attempts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const list = SignupAttemptList.parse((await get(url(R.signupAttempts, 'email=ANA@example.com'))).json());
    expect(list.map((a) => a.createdAt)).toEqual([s3.occurredAt, s1.occurredAt]);
    expect(parseCsv(res.body)).toEqual([[...SignupAttemptCsvColumns], ...asCells(list, SignupAttemptCsvColumns)]);
    expect(SignupAttemptCsvColumns).toEqual(['id', 'email', 'step', 'status', 'failureReason', 'referralCode', 'ipAddress', 'userAgent', 'inputAltered', 'createdAt']);
  });

  it('exports login attempts with the date filters, a bare to date through the end of its day', async () => {
    const res = await exported(R.loginAttemptsExport, `from=${day(1)}&to=${day(2)}`);
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual([...LoginAttemptCsvColumns]);
    const column = (name: string) => LoginAttemptCsvColumns.indexOf(name as never);
    expect(rows.slice(1).map((r) => ['email', 'method', 'status', 'failureReason', 'createdAt'].map((c) => r[column(c)]))).toEqual([
      ['Bob@Example.com', 'google', 'failed', '', l3.occurredAt],
      ['ana@example.com', 'password', 'failed', 'Invalid email or password', l2.occurredAt],
    ]);
    // Nothing matches: the header alone.
    expect((await exported(R.loginAttemptsExport, 'email=nobody@example.com')).body).toBe(`${LoginAttemptCsvColumns.join(',')}\r\n`);
  });

  it('quotes cells with quotes, commas or line breaks, and makes formulas text with a leading \'', async () => {
    const { body } = await exported(R.signupAttemptsExport, `from=${day(1)}&to=${day(2)}`);
    const s2Id = SignupAttemptList.parse((await get(url(R.signupAttempts, `from=${day(1)}&to=${day(1)}`))).json()).at(-1)!.id;
    expect(body).toContain(
      `${s2Id},"'=HYPERLINK(""http://evil.example"",""click"")",request,failed,"Email already registered, ""twice""",ANA12345,'-1+1,'+cmd|calc,false,${s2.occurredAt}\r\n`,
    );
    expect(body).toContain(',failed,Invalid referral code,\'@SUM(A1),203.0.113.7,');
    // Read back, each cell is what was sent, the leading ' aside.
    const row = parseCsv(body).find((r) => r[0] === String(s2Id))!;
    expect([row[1], row[4], row[6], row[7]]).toEqual([`'${FORMULA_EMAIL}`, AWKWARD_REASON, "'-1+1", "'+cmd|calc"]);
  });

  it('streams a long list a page at a time: every attempt once, in the list\'s order, ties in time included', async () => {
    // Beyond two pages, most at one instant, so the pages' boundaries fall between rows of equal time.
    const same = new Date(at(3, '12:00:00.000'));
    const many = Array.from({ length: EXPORT_PAGE_SIZE * 2 + 37 }, (_, i) => ({
      eventId: randomUUID(), email: `load${i}@example.com`, emailKey: `load${i}@example.com`, method: 'password' as const,
      status: i % 3 === 0 ? 'failed' as const : 'success' as const, failureReason: i % 3 === 0 ? 'Invalid email or password' : null,
      ipAddress: '192.0.2.1', userAgent: 'k6', inputAltered: false, createdAt: i % 10 === 0 ? new Date(same.getTime() + i) : same,
    }));
    await svc.ctx.orm.em.fork().insertMany(LoginAttempt, many);

    const query = `from=${day(3)}&to=${day(3)}`;
    const res = await exported(R.loginAttemptsExport, query);
    // A body handed over whole would carry its length; a stream is sent as it is read.
    expect(res.headers['content-length']).toBeUndefined();
    const listed = [];
    for (let offset = 0; offset < many.length; offset += 500) {
      listed.push(...LoginAttemptList.parse((await get(url(R.loginAttempts, `${query}&limit=500&offset=${offset}`))).json()));
    }
    const ids = parseCsv(res.body).slice(1).map((r) => Number(r[0]));
    expect(ids).toHaveLength(many.length);
    expect(ids).toEqual(listed.map((a) => a.id));
  });

  it('refuses bad filters with 400 and the list\'s messages', async () => {
    for (const [route, query] of [[R.signupAttemptsExport, 'from=yesterday'], [R.loginAttemptsExport, 'to=2025-02-30']] as const) {
      const res = await get(url(route, query));
      expect([res.statusCode, ErrorBody.parse(res.json()).message]).toEqual([400, 'Dates must be ISO dates (YYYY-MM-DD) or ISO date-times']);
    }
  });

  it('counts sign-ups and logins per UTC day by status, every day of the period, zeros included', async () => {
    const res = await get(url(R.attemptsPerDay, `from=${day(-1)}&to=${day(2)}`));
    expect(res.statusCode, res.body).toBe(200);
    expect(AttemptsPerDay.parse(res.json())).toEqual([
      { date: day(-1), signups: { completed: 0, pending: 0, failed: 0 }, logins: { success: 0, failed: 0 } },
      { date: day(0), signups: { completed: 0, pending: 1, failed: 0 }, logins: { success: 1, failed: 0 } },
      { date: day(1), signups: { completed: 1, pending: 0, failed: 1 }, logins: { success: 0, failed: 1 } },
      // s4 at 23:59:59.999 is still day 2; l3 at midnight is its first instant.
      { date: day(2), signups: { completed: 0, pending: 0, failed: 1 }, logins: { success: 0, failed: 1 } },
    ]);
    const one = AttemptsPerDay.parse((await get(url(R.attemptsPerDay, `from=${day(1)}&to=${day(1)}`))).json());
    expect(one).toEqual([{ date: day(1), signups: { completed: 1, pending: 0, failed: 1 }, logins: { success: 0, failed: 1 } }]);
  });

  it('refuses a period that is missing, reversed, longer than 366 days or not made of dates', async () => {
    const cases: [string, string, string][] = [
      ['', 'from', 'from and to must be ISO dates (YYYY-MM-DD)'],
      [`from=${day(0)}`, 'to', 'from and to must be ISO dates (YYYY-MM-DD)'],
      [`from=${day(0)}T00:00:00Z&to=${day(1)}`, 'from', 'from and to must be ISO dates (YYYY-MM-DD)'],
      [`from=${day(2)}&to=${day(1)}`, 'from', 'from must not be after to'],
      ['from=2025-01-01&to=2026-01-02', 'to', 'The period can be at most 366 days'],
    ];
    for (const [query, field, message] of cases) {
      const res = await get(url(R.attemptsPerDay, query));
      const body = ErrorBody.parse(res.json());
      expect([query, res.statusCode, body.message, body.errors?.[0]?.field]).toEqual([query, 400, message, field]);
    }
    // A leap year's 366 days are one period.
    expect((await get(url(R.attemptsPerDay, 'from=2024-01-01&to=2024-12-31'))).statusCode).toBe(200);
  });
});
