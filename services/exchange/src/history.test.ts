/**
 * GET /transaction-history keeps everything: completed matches from each party's side and the requests their owner
 * marked done (no match, nobody on the other side), newest first across both, paged with X-Total-Count. Identity is
 * a fake server answering its internal users route, so a match's other party is named.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ExchangeMatch, ExchangeRequest, Routes, TransactionHistory, servicePath, type Currency } from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ExchangeRequest as RequestRow } from './domain/exchange-request.ts';
import { Migration20261128060017_marked_done as MarkedDone } from './migrations/Migration20261128060017_marked_done.ts';
import { startExchangeOnClock, trader } from './testing/traders.ts';

type Headers = Record<string, string>;
const DAY_MS = 86_400_000;
const named = (id: number) => ({ firstName: `User${id}`, lastName: 'Tester', email: `u${id}@puente.test` });

describeWithInfra(['postgres'], 'exchange: the transaction history keeps completed matches and requests marked done', () => {
  const db = useFreshDatabase('exchange_history');
  let svc: TestService;
  let identity: Server;
  let clock = new Date('2026-03-10T12:00:00.000Z');
  beforeAll(async () => {
    identity = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://identity');
      const found = url.pathname === servicePath(Routes.identity.internalUsers);
      const ids = (url.searchParams.get('ids') ?? '').split(',').map(Number);
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(found ? ids.map((id) => ({
        id, ...named(id), profileImageUrl: null, trustRating: null, ratingCount: 0, transactionCount: 0, emailVerified: true,
        phoneVerified: false, idVerified: false, bankVerified: false, subscriptionTier: 'free', hasBothAccounts: true, createdAt: '2026-01-01T00:00:00.000Z',
      })) : { message: 'Not found' }));
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
    svc = await startExchangeOnClock(db.url, () => clock, {}, { serviceUrls: { identity: `http://127.0.0.1:${(identity.address() as AddressInfo).port}` } });
  });
  afterAll(async () => {
    await svc?.stop();
    await new Promise((resolve) => identity?.close(resolve));
  });

  let nextUser = 1;
  const newTrader = () => trader(svc, nextUser++);
  /** A day later: the free plan allows two exchanges a day. */
  const nextDay = () => { clock = new Date(clock.getTime() + DAY_MS); };
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: object) => {
    const res = await svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(method === 'POST' ? 201 : 200);
    return res;
  };
  const post = async (headers: Headers, fromCurrency: Currency, amount: number) => ExchangeRequest.parse((await call('POST', '/exchange-requests', headers,
    { fromCurrency, toCurrency: fromCurrency === 'GBP' ? 'CLP' : 'GBP', amount, exchangeRate: 1275 })).json());
  const markDone = async (headers: Headers, id: number) => {
    await call('PATCH', `/exchange-requests/${id}/complete`, headers);
    return clock.toISOString();
  };
  const history = async (headers: Headers, query = '') => {
    const res = await call('GET', `/transaction-history${query}`, headers);
    return { total: res.headers['x-total-count'], items: TransactionHistory.parse(res.json()) };
  };

  it('lists a request its owner marked done as theirs, with no match and nobody else, among their completed exchanges newest first', async () => {
    const [ana, bea] = [await newTrader(), await newTrader()];
    // Day 1: Ana marks £100.50 done. Day 2: Bea's 1,000 CLP, taken by Ana, completes. Day 3: Ana marks 200,000 CLP done.
    const first = await post(ana.headers, 'GBP', 100.5);
    const firstDone = await markDone(ana.headers, first.id);
    nextDay();
    const beas = await post(bea.headers, 'CLP', 1000);
    const match = ExchangeMatch.parse((await call('POST', '/exchange-matches', ana.headers, { exchangeRequestId: beas.id })).json());
    await call('PUT', `/exchange-matches/${match.id}/confirm`, bea.headers);
    await call('PUT', `/exchange-matches/${match.id}/complete`, ana.headers);
    const matchDone = clock.toISOString();
    nextDay();
    const second = await post(ana.headers, 'CLP', 200_000);
    const secondDone = await markDone(ana.headers, second.id);

    const terms = { exchangeRate: 1275, status: 'completed', userRole: 'requester' } as const;
    // £100.50 at 1275 is 128,137.5 CLP: 128,138 rounded half-up. 200,000 CLP at 1275 is £156.862…: £156.86.
    const markedSecond = { ...terms, id: second.id, exchangeRequestId: second.id, exchangeMatchId: null, fromCurrency: 'CLP', fromAmount: 200_000, toCurrency: 'GBP', toAmount: 156.86, completedAt: secondDone };
    const markedFirst = { ...terms, id: first.id, exchangeRequestId: first.id, exchangeMatchId: null, fromCurrency: 'GBP', fromAmount: 100.5, toCurrency: 'CLP', toAmount: 128_138, completedAt: firstDone };
    const matched = {
      id: match.id, exchangeRequestId: beas.id, exchangeMatchId: match.id, fromCurrency: 'GBP', fromAmount: 0.78, toCurrency: 'CLP', toAmount: 1000,
      exchangeRate: 1275, status: 'completed', completedAt: matchDone, userRole: 'matcher', otherUser: named(bea.userId),
    };
    const all = await history(ana.headers);
    expect(all).toEqual({ total: '3', items: [markedSecond, matched, markedFirst] });
    // Nobody traded on a request marked done: its row names nobody (not even 'User information unavailable').
    for (const row of [all.items[0], all.items[2]]) expect(row).not.toHaveProperty('otherUser');

    // Pages run across both kinds; the total counts both.
    expect(await history(ana.headers, '?limit=1&offset=1')).toEqual({ total: '3', items: [matched] });
    expect(await history(ana.headers, '?limit=2&offset=2')).toEqual({ total: '3', items: [markedFirst] });
    expect(await history(ana.headers, '?offset=3')).toEqual({ total: '3', items: [] });
    // Bea's history holds the exchange she was in, not Ana's requests.
    expect(await history(bea.headers)).toEqual({ total: '1', items: [{
      ...matched, fromCurrency: 'CLP', fromAmount: 1000, toCurrency: 'GBP', toAmount: 0.78, userRole: 'requester', otherUser: named(ana.userId),
    }] });
  });

  it('a cancelled request stays out; a request that completed through its match is listed once, as the match', async () => {
    const [cy, di] = [await newTrader(), await newTrader()];
    nextDay();
    const cancelled = await post(cy.headers, 'GBP', 50);
    await call('PATCH', `/exchange-requests/${cancelled.id}/cancel`, cy.headers);
    const traded = await post(cy.headers, 'GBP', 60);
    const match = ExchangeMatch.parse((await call('POST', '/exchange-matches', di.headers, { exchangeRequestId: traded.id })).json());
    await call('PUT', `/exchange-matches/${match.id}/confirm`, cy.headers);
    await call('PUT', `/exchange-matches/${match.id}/complete`, cy.headers);
    const { items, total } = await history(cy.headers);
    expect([total, items.map((h) => [h.exchangeRequestId, h.exchangeMatchId, h.otherUser])]).toEqual(['1', [[traded.id, match.id, named(di.userId)]]]);
  });

  it('the migration gives requests marked done before it their last change as the time, and nothing to any other request', async () => {
    const [eve, fay] = [await newTrader(), await newTrader()];
    nextDay();
    const done = await post(eve.headers, 'GBP', 20);
    await markDone(eve.headers, done.id);
    const traded = await post(eve.headers, 'GBP', 30);
    const match = ExchangeMatch.parse((await call('POST', '/exchange-matches', fay.headers, { exchangeRequestId: traded.id })).json());
    await call('PUT', `/exchange-matches/${match.id}/confirm`, eve.headers);
    await call('PUT', `/exchange-matches/${match.id}/complete`, fay.headers);
    nextDay();
    const open = await post(eve.headers, 'CLP', 10_000);

    const em = svc.ctx.orm.em.fork();
    const migration = new MarkedDone(em.getDriver(), svc.ctx.orm.config);
    await migration.down();
    await migration.up();
    for (const sql of migration.getQueries()) await em.execute(String(sql));
    const rows = await em.fork().find(RequestRow, { id: { $in: [done.id, traded.id, open.id] } }, { orderBy: { id: 'asc' } });
    const markedAt = rows[0]!.updatedAt.toISOString();
    expect(rows.map((r) => [r.id, r.markedDoneAt?.toISOString() ?? null])).toEqual([[done.id, markedAt], [traded.id, null], [open.id, null]]);
    const { items } = await history(eve.headers);
    expect(items.map((h) => [h.exchangeRequestId, h.exchangeMatchId]).sort()).toEqual([[done.id, null], [traded.id, match.id]].sort());
    expect(items.find((h) => h.exchangeMatchId === null)?.completedAt).toBe(markedAt);
  });
});
