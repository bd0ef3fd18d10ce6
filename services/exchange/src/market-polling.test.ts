/**
 * GET /api/exchange-requests is polled every 3 s by every signed-in tab: it answers ETag with
 * `Cache-Control: private, no-cache`, and an unchanged poll is a 304 that reads no request, match or card (only
 * whether the viewer has blocks, one indexed lookup; the gateway answers such polls without asking the service at
 * all). Any change to the market (a request posted, accepted, approved, completed, cancelled, expired; a poster's
 * card) answers anew, and the list — the same for everyone without blocks — shares one ETag. The caller's own requests and matches, polled by the
 * dashboard, answer from the caller's own version: another user's trade leaves them unchanged.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ExchangeMatch, ExchangeMatchList, ExchangeRequest, ExchangeRequestList } from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { SWEEP_TRADE_TIMERS, sweepTradeTimers } from './jobs/sweep-trade-timers.ts';
import { rated, renamed, startExchangeOnClock, trader } from './testing/traders.ts';

type Headers = Record<string, string>;

describeWithInfra(['postgres'], 'polling the market', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  let clock = new Date('2026-03-10T09:00:00.000Z');
  beforeAll(async () => {
    svc = await startExchangeOnClock(db.url, () => clock);
    await svc.ctx.jobs.unschedule(SWEEP_TRADE_TIMERS);
  });
  afterAll(async () => { await svc?.stop(); });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: object) =>
    svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const poll = (headers: Headers, etag?: string, url = '/exchange-requests') =>
    call('GET', url, { ...headers, ...(etag ? { 'if-none-match': etag } : {}) });

  /** Polls with the last ETag: null when unchanged (304), else the new list and its ETag. */
  async function changed(headers: Headers, etag: string) {
    const res = await poll(headers, etag);
    if (res.statusCode === 304) {
      expect(res.headers.etag).toBe(etag);
      return null;
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    return { list: ExchangeRequestList.parse(res.json()), etag: String(res.headers.etag) };
  }

  /** Market SQL run from now on (the outbox relay's own polling aside), and the lookups of viewers' blocks. */
  function marketQueries() {
    const spy = vi.spyOn(svc.ctx.orm.em.getConnection(), 'execute');
    const matching = (pattern: RegExp) => spy.mock.calls.filter(([sql]) => pattern.test(String(sql))).length;
    return {
      count: () => matching(/"exchange"\."(exchange_request|exchange_match|trader)"/),
      blockLookups: () => matching(/"exchange"\."block"/),
      restore: () => spy.mockRestore(),
    };
  }

  it('answers unchanged polls with 304 and no query; every change to the market, and only that, answers anew', async () => {
    const ana = await trader(svc, 1, { firstName: 'Ana' });
    const bob = await trader(svc, 2, { firstName: 'Bob' });
    const first = await poll(ana.headers);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(ExchangeRequestList.parse(first.json())).toEqual([]);
    let anaTag = String(first.headers.etag);
    let bobTag = String((await poll(bob.headers)).headers.etag);
    // One list for everyone: one ETag (so the gateway can keep one copy of it).
    expect(bobTag).toBe(anaTag);
    expect((await poll(bob.headers, anaTag)).statusCode).toBe(304);
    // But per URL: a filtered list has its own.
    expect((await poll(ana.headers, anaTag, '/exchange-requests?fromCurrency=GBP')).statusCode).toBe(200);

    const queries = marketQueries();
    try {
      for (let i = 0; i < 5; i++) expect(await changed(ana.headers, anaTag)).toBeNull();
      expect(queries.count()).toBe(0);
      expect(queries.blockLookups()).toBe(5);
    } finally {
      queries.restore();
    }

    /** After `change`, both polls answer anew; returns Ana's list. */
    async function afterChange(change: () => Promise<unknown>) {
      await change();
      const forAna = await changed(ana.headers, anaTag);
      const forBob = await changed(bob.headers, bobTag);
      expect(forAna).not.toBeNull();
      expect(forBob).not.toBeNull();
      anaTag = forAna!.etag;
      bobTag = forBob!.etag;
      return forAna!.list;
    }

    const posted = await call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 });
    expect(posted.statusCode, posted.body).toBe(201);
    const request = ExchangeRequest.parse(posted.json());
    expect((await afterChange(async () => {})).map((r) => [r.id, r.status])).toEqual([[request.id, 'open']]);

    // A refused change changes nothing.
    expect((await call('POST', '/exchange-matches', ana.headers, { exchangeRequestId: request.id })).statusCode).toBe(403);
    expect(await changed(ana.headers, anaTag)).toBeNull();

    // Accepted, the request leaves the market; its owner follows it in their own list (below).
    let matchId = 0;
    expect(await afterChange(async () => {
      const res = await call('POST', '/exchange-matches', bob.headers, { exchangeRequestId: request.id });
      expect(res.statusCode, res.body).toBe(201);
      matchId = ExchangeMatch.parse(res.json()).id;
    })).toEqual([]);
    expect((await call('PUT', `/exchange-matches/${matchId}/confirm`, ana.headers)).statusCode).toBe(200);
    expect((await call('PUT', `/exchange-matches/${matchId}/complete`, bob.headers)).statusCode).toBe(200);

    // A poster's card changing (a rating) is a change too.
    const second = ExchangeRequest.parse((await call('POST', '/exchange-requests', ana.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 50, exchangeRate: 1275 })).json());
    expect((await afterChange(async () => {})).map((r) => r.user.trustRating)).toEqual([null]);
    expect((await afterChange(() => rated(svc, 1, '4.5000', 1))).map((r) => r.user.trustRating)).toEqual([4.5]);

    // So is a request expiring on the trade timers.
    clock = new Date(clock.getTime() + 400 * 86_400_000);
    expect(await afterChange(() => sweepTradeTimers(svc.ctx, { matchApprovalHours: 24, completionReminderHours: [], requestExpiryDays: 7 }, clock))).toEqual([]);
    expect(second.status).toBe('open');
  });

  it('answers the caller\'s own requests and matches from the caller\'s own version', async () => {
    const cy = await trader(svc, 3, { firstName: 'Cy' });
    const dee = await trader(svc, 4, { firstName: 'Dee' });
    for (const url of ['/exchange-requests/user', '/exchange-matches']) {
      const first = await poll(cy.headers, undefined, url);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const tag = String(first.headers.etag);
      expect((await poll(cy.headers, tag, url)).statusCode).toBe(304);
      expect((await poll(dee.headers, tag, url)).statusCode).toBe(200); // personal
    }
    const tags = async () => Promise.all(['/exchange-requests/user', '/exchange-matches'].map(async (url) => String((await poll(cy.headers, undefined, url)).headers.etag)));
    const before = await tags();
    const posted = await call('POST', '/exchange-requests', cy.headers, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 50_000, exchangeRate: 1275 });
    expect(posted.statusCode, posted.body).toBe(201);
    const afterPost = await tags();
    expect(afterPost[0]).not.toBe(before[0]);
    const mine = await poll(cy.headers, before[0], '/exchange-requests/user');
    expect(ExchangeRequestList.parse(mine.json()).map((r) => r.amount)).toEqual([50_000]);
    const accepted = await call('POST', '/exchange-matches', dee.headers, { exchangeRequestId: ExchangeRequest.parse(posted.json()).id });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const matches = await poll(cy.headers, afterPost[1], '/exchange-matches');
    expect(matches.statusCode).toBe(200);
    expect(ExchangeMatchList.parse(matches.json()).map((m) => m.status)).toEqual(['pending']);

    // Someone else's trade changes the market, not Cy's own lists.
    const [ownTag, matchesTag] = await tags();
    const eve = await trader(svc, 5, { firstName: 'Eve' });
    expect((await call('POST', '/exchange-requests', eve.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 70, exchangeRate: 1275 })).statusCode).toBe(201);
    expect((await poll(cy.headers, ownTag, '/exchange-requests/user')).statusCode).toBe(304);
    expect((await poll(cy.headers, matchesTag, '/exchange-matches')).statusCode).toBe(304);
    // Dee's new name shows in Cy's matches (Dee accepted Cy's request): Cy's list answers anew.
    await renamed(svc, dee.userId, 'Deedee');
    const renamedMatches = await poll(cy.headers, matchesTag, '/exchange-matches');
    expect(renamedMatches.statusCode).toBe(200);
    expect(ExchangeMatchList.parse(renamedMatches.json()).map((m) => m.matcherName)).toEqual(['Deedee Trader']);
  });
});
