import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ErrorBody, ExchangeMatch, ExchangeMatchForRequest, ExchangeMatchList, ExchangeRequest, ExchangeRequestList } from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ExchangeSettings } from './app.ts';
import { SWEEP_TRADE_TIMERS, sweepTradeTimers, type TradeTimers } from './jobs/sweep-trade-timers.ts';
import { publishedOnce, publishedPayloads, startExchangeOnClock, trader } from './testing/traders.ts';

type Headers = Record<string, string>;
const HOUR = 3_600_000;
const TIMER_ENV = { MATCH_APPROVAL_HOURS: '24', COMPLETION_REMINDER_HOURS: '12,48', REQUEST_EXPIRY_DAYS: '30' };
const settings = ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off', ...TIMER_ENV });
const timers: TradeTimers = {
  matchApprovalHours: settings.MATCH_APPROVAL_HOURS,
  completionReminderHours: settings.COMPLETION_REMINDER_HOURS,
  requestExpiryDays: settings.REQUEST_EXPIRY_DAYS,
};
const NOTHING = { expiredMatches: 0, reminders: 0, expiredRequests: 0, lapsedReceipts: 0 };

describe('ExchangeSettings: the trade timers', () => {
  const reminders = (value: string) => ExchangeSettings.safeParse({ COMPLETION_REMINDER_HOURS: value });
  const REMINDERS_MESSAGE = 'COMPLETION_REMINDER_HOURS must be whole numbers of hours separated by commas, e.g. 12,48 (or none)';

  it('defaults to 24 hours to approve, reminders at 12 and 48 hours, and 30 days for an open request', () => {
    const { MATCH_APPROVAL_HOURS, COMPLETION_REMINDER_HOURS, REQUEST_EXPIRY_DAYS } = ExchangeSettings.parse({});
    expect({ MATCH_APPROVAL_HOURS, COMPLETION_REMINDER_HOURS, REQUEST_EXPIRY_DAYS }).toEqual({
      MATCH_APPROVAL_HOURS: 24, COMPLETION_REMINDER_HOURS: [12, 48], REQUEST_EXPIRY_DAYS: 30,
    });
  });

  it('reads COMPLETION_REMINDER_HOURS as a list of hours, or none', () => {
    expect(reminders('none').data?.COMPLETION_REMINDER_HOURS).toEqual([]);
    expect(reminders('6, 24').data?.COMPLETION_REMINDER_HOURS).toEqual([6, 24]);
    for (const value of ['x', '0', '12,,48', '-1', '1.5']) {
      expect(reminders(value).error?.issues.map((i) => ({ setting: i.path[0], message: i.message })), value)
        .toEqual([{ setting: 'COMPLETION_REMINDER_HOURS', message: REMINDERS_MESSAGE }]);
    }
    expect(ExchangeSettings.safeParse({ MATCH_APPROVAL_HOURS: '0' }).error?.issues.map((i) => i.message))
      .toEqual(['MATCH_APPROVAL_HOURS must be a whole number from 1 to 720']);
    expect(ExchangeSettings.safeParse({ REQUEST_EXPIRY_DAYS: 'soon' }).error?.issues.map((i) => i.message))
      .toEqual(['REQUEST_EXPIRY_DAYS must be a whole number from 1 to 3650']);
  });
});

describeWithInfra(['postgres'], 'trade timers', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  /** Only moves forward: every test starts from where the previous one left it. */
  let clock = new Date('2026-05-04T10:00:00.000Z');
  const start = async () => {
    svc = await startExchangeOnClock(db.url, () => clock, TIMER_ENV);
    await svc.ctx.jobs.unschedule(SWEEP_TRADE_TIMERS); // the test runs the sweep, at the instants it chooses
  };
  beforeAll(start);
  afterAll(async () => { await svc?.stop(); });

  /** A clock for one test: `at(h)` sets it h hours after the test began. */
  const fromNow = () => {
    const t0 = clock.getTime();
    return (hours: number) => { clock = new Date(t0 + hours * HOUR); };
  };
  const sweep = () => sweepTradeTimers(svc.ctx, timers, clock);

  let nextUser = 1;
  const user = () => trader(svc, nextUser++);
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
    svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const ok = (res: LightMyRequestResponse, status = 200) => {
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  };
  const post = async (headers: Headers) => ExchangeRequest.parse(ok(await call('POST', '/exchange-requests', headers,
    { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100.5, exchangeRate: 1275 }), 201));
  const accept = async (headers: Headers, exchangeRequestId: number) =>
    ExchangeMatch.parse(ok(await call('POST', '/exchange-matches', headers, { exchangeRequestId }), 201));
  const act = async (headers: Headers, matchId: number, action: 'confirm' | 'complete') =>
    ExchangeMatch.parse(ok(await call('PUT', `/exchange-matches/${matchId}/${action}`, headers)));
  const readRequest = async (headers: Headers, id: number) => ExchangeRequest.parse(ok(await call('GET', `/exchange-requests/${id}`, headers)));
  const marketIds = async (headers: Headers) =>
    ExchangeRequestList.parse(ok(await call('GET', '/exchange-requests?limit=500', headers))).map((r) => r.id);

  /** A poster's request accepted by a matcher now: a pending match. */
  async function trade() {
    const poster = await user();
    const matcher = await user();
    const request = await post(poster.headers);
    const match = await accept(matcher.headers, request.id);
    return { poster, matcher, request, match };
  }
  const partiesOf = (t: Awaited<ReturnType<typeof trade>>) =>
    ({ matchId: t.match.id, requestId: t.request.id, requesterId: t.poster.userId, matcherId: t.matcher.userId });
  const expiredMatches = async (...ts: Awaited<ReturnType<typeof trade>>[]) =>
    (await publishedPayloads(svc, 'matchExpired')).filter((e) => ts.some((t) => t.match.id === e.matchId));
  const reminders = async (...ts: Awaited<ReturnType<typeof trade>>[]) =>
    (await publishedPayloads(svc, 'matchCompletionReminded')).filter((e) => ts.some((t) => t.match.id === e.matchId));
  const expiredRequests = async (...ids: number[]) =>
    (await publishedPayloads(svc, 'requestExpired')).filter((e) => ids.includes(e.requestId));

  /** A second sweep at the same instant changes nothing and publishes nothing. */
  async function sweepsAgainToNoEffect() {
    const before = (await publishedOnce(svc)).length;
    expect(await sweep()).toEqual(NOTHING);
    expect(await publishedOnce(svc)).toHaveLength(before);
  }

  it('a pending match not approved within MATCH_APPROVAL_HOURS expires and its request reopens; a younger one waits', async () => {
    const at = fromNow();
    const old = await trade();
    at(2);
    const young = await trade();
    const outsider = await user();

    at(24 - 1 / 60);
    await sweep();
    expect(await expiredMatches(old, young)).toEqual([]);

    at(24);
    await sweep();
    expect(await expiredMatches(old, young)).toEqual([partiesOf(old)]);
    expect(ExchangeMatchList.parse(ok(await call('GET', '/exchange-matches', old.matcher.headers)))).toEqual([
      { ...old.match, status: 'expired', exchangeRequest: { ...old.match.exchangeRequest, status: 'open' } },
    ]);
    expect(await readRequest(outsider.headers, old.request.id)).toEqual(old.request);
    expect(await marketIds(outsider.headers)).toContain(old.request.id);
    expect(ExchangeMatchForRequest.parse(ok(await call('GET', `/exchange-matches/request/${old.request.id}`, old.poster.headers)))).toBeNull();
    // Too late to approve it; the reopened request may be taken again.
    const late = await call('PUT', `/exchange-matches/${old.match.id}/confirm`, old.poster.headers);
    expect(late.statusCode).toBe(409);
    expect(ErrorBody.parse(late.json())).toEqual({ message: 'This match is expired: only a pending match can be approved', code: 'conflict' });

    // The younger match is still pending.
    expect(ExchangeMatchForRequest.parse(ok(await call('GET', `/exchange-matches/request/${young.request.id}`, young.poster.headers))))
      .toEqual(young.match);
    expect((await readRequest(outsider.headers, young.request.id)).status).toBe('matched');
    await sweepsAgainToNoEffect();
    expect(await expiredMatches(old, young)).toEqual([partiesOf(old)]);
    await accept(outsider.headers, old.request.id);
  });

  it('a confirmed match not completed is reminded at each of COMPLETION_REMINDER_HOURS, once; a completed one never', async () => {
    const at = fromNow();
    const open = await trade();
    await act(open.poster.headers, open.match.id, 'confirm');
    const done = await trade();
    await act(done.poster.headers, done.match.id, 'confirm');
    await act(done.matcher.headers, done.match.id, 'complete');

    at(12 - 1 / 60);
    await sweep();
    expect(await reminders(open, done)).toEqual([]);
    at(12);
    await sweep();
    const first = { ...partiesOf(open), hoursSinceConfirmed: 12 };
    expect(await reminders(open, done)).toEqual([first]);
    await sweepsAgainToNoEffect();
    at(13);
    await sweep();
    expect(await reminders(open, done)).toEqual([first]);
    at(48);
    await sweep();
    expect(await reminders(open, done)).toEqual([first, { ...partiesOf(open), hoursSinceConfirmed: 48 }]);
    at(200);
    await sweep();
    expect(await reminders(open, done)).toEqual([first, { ...partiesOf(open), hoursSinceConfirmed: 48 }]);
  });

  it('a match confirmed 50 hours ago and never reminded gets one reminder, the latest (48), not two', async () => {
    const at = fromNow();
    const late = await trade();
    await act(late.poster.headers, late.match.id, 'confirm');
    at(50);
    await sweep();
    expect(await reminders(late)).toEqual([{ ...partiesOf(late), hoursSinceConfirmed: 48 }]);
    await sweepsAgainToNoEffect();
  });

  it('an open request nobody took expires after REQUEST_EXPIRY_DAYS, counted from when it last became open', async () => {
    const at = fromNow();
    const lonely = await post((await user()).headers);
    at(1);
    const reopened = await trade(); // pending from hour 1, expires at hour 25: its request is open again from then
    const outsider = await user();
    at(25);
    await sweep();
    expect(await expiredMatches(reopened)).toEqual([partiesOf(reopened)]);

    at(30 * 24 - 1 / 60);
    await sweep();
    expect(await expiredRequests(lonely.id, reopened.request.id)).toEqual([]);
    at(30 * 24);
    await sweep();
    expect(await expiredRequests(lonely.id, reopened.request.id)).toEqual([{ requestId: lonely.id, userId: lonely.userId }]);
    expect(await readRequest(outsider.headers, lonely.id)).toEqual({ ...lonely, status: 'expired' });
    expect(await marketIds(outsider.headers)).not.toContain(lonely.id);
    expect(await marketIds(outsider.headers)).toContain(reopened.request.id);
    const takeExpired = await call('POST', '/exchange-matches', outsider.headers, { exchangeRequestId: lonely.id });
    expect(takeExpired.statusCode).toBe(409);
    expect(ErrorBody.parse(takeExpired.json())).toEqual({ message: 'This exchange request is no longer open', code: 'conflict' });
    await sweepsAgainToNoEffect();

    at(25 + 30 * 24);
    await sweep();
    expect(await expiredRequests(lonely.id, reopened.request.id)).toEqual([
      { requestId: lonely.id, userId: lonely.userId },
      { requestId: reopened.request.id, userId: reopened.poster.userId },
    ]);
    expect((await readRequest(outsider.headers, reopened.request.id)).status).toBe('expired');
  });

  it('timers survive a restart: they are kept in the database, not in the process', async () => {
    const at = fromNow();
    const pending = await trade();
    const confirmed = await trade();
    await act(confirmed.poster.headers, confirmed.match.id, 'confirm');
    const waiting = await post((await user()).headers);

    await svc.stop();
    await start();

    at(24);
    await sweep();
    expect(await expiredMatches(pending, confirmed)).toEqual([partiesOf(pending)]);
    expect(await reminders(pending, confirmed)).toEqual([{ ...partiesOf(confirmed), hoursSinceConfirmed: 12 }]);
    at(30 * 24);
    await sweep();
    expect(await expiredRequests(waiting.id, pending.request.id)).toEqual([{ requestId: waiting.id, userId: waiting.userId }]);
    expect(await reminders(pending, confirmed)).toEqual([
      { ...partiesOf(confirmed), hoursSinceConfirmed: 12 }, { ...partiesOf(confirmed), hoursSinceConfirmed: 48 },
    ]);
    await sweepsAgainToNoEffect();
  });
});
