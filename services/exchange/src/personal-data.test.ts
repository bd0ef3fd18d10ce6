/**
 * A user's data: their requests, matches and completed exchanges in their data download, the count that lets
 * identity refuse a deletion mid-trade, and what their deletion does here: their card shows a deleted user, what they
 * had open ends, their completed exchanges stay, and they can no longer post or accept.
 */
import { expect, it } from 'vitest';
import {
  DeletedUser, ErrorBody, ExchangeMatch, ExchangeMatchList, ExchangePersonalData, ExchangeRequest, ExchangeRequestList, TradesInProgress,
  TransactionHistory,
} from '@puente/contracts';
import { makeEvent, type Caller } from '@puente/platform';
import { describeWithInfra } from '@puente/testkit';
import { ACCOUNT_DELETED } from './domain/traders.ts';
import { tierChanged, trader, useExchangeService } from './testing/traders.ts';

type Headers = Record<string, string>;
const GBP_100 = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } as const;
const IDENTITY: Caller = { kind: 'service', service: 'identity' };

describeWithInfra(['postgres'], 'a user\'s trades: downloaded, counted before a deletion, and ended by it', () => {
  const exchange = useExchangeService();
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
    exchange.svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) => {
    const res = await call(method, url, headers, payload);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json<unknown>();
  };
  const post = async (headers: Headers) => ExchangeRequest.parse(await ok('POST', '/exchange-requests', headers, GBP_100));
  const accept = async (headers: Headers, exchangeRequestId: number) => ExchangeMatch.parse(await ok('POST', '/exchange-matches', headers, { exchangeRequestId }));
  const internal = async (url: string, caller: Caller = IDENTITY) => exchange.svc.app.inject({ method: 'GET', url, headers: await exchange.svc.as(caller) });
  const inProgress = async (userId: number) => TradesInProgress.parse((await internal(`/internal/trades-in-progress?userId=${userId}`)).json()).matchesInProgress;

  it('downloads a user\'s requests, matches and history; counts the matches in progress; ends their open trades once deleted', async () => {
    const [ana, bo, cy, di] = [await trader(exchange.svc, 1, { firstName: 'Ana' }), await trader(exchange.svc, 2, { firstName: 'Bo' }),
      await trader(exchange.svc, 3, { firstName: 'Cy' }), await trader(exchange.svc, 4, { firstName: 'Di' })];
    for (const premium of [ana, cy]) await tierChanged(exchange.svc, premium.userId, 'premium'); // past the free plan's 2 a day
    // A completed exchange with Bo, an open request, one Cy accepted a moment before the deletion, and Cy's she accepted.
    const done = await post(ana.headers);
    const doneMatch = await accept(bo.headers, done.id);
    await ok('PUT', `/exchange-matches/${doneMatch.id}/confirm`, ana.headers);
    await ok('PUT', `/exchange-matches/${doneMatch.id}/complete`, bo.headers);
    const open = await post(ana.headers);
    const acceptedByCy = await post(ana.headers);
    const cyMatch = await accept(cy.headers, acceptedByCy.id);
    const cys = await post(cy.headers);
    const anaOnCys = await accept(ana.headers, cys.id);
    const dis = await post(di.headers);
    expect((await call('POST', '/blocked-users', ana.headers, { userId: bo.userId })).statusCode).toBe(201);
    expect((await call('POST', '/blocked-users', cy.headers, { userId: ana.userId })).statusCode).toBe(201);

    const res = await internal(`/internal/personal-data/trades?userId=${ana.userId}`);
    expect(res.statusCode).toBe(200);
    const data = ExchangePersonalData.parse(res.json());
    expect(data.requests.map((r) => [r.id, r.status])).toEqual([[done.id, 'completed'], [open.id, 'open'], [acceptedByCy.id, 'matched']]);
    expect(data.matches.map((m) => [m.id, m.status, m.matcherName])).toEqual([
      [doneMatch.id, 'completed', 'Bo Tester'], [cyMatch.id, 'pending', 'Cy Tester'], [anaOnCys.id, 'pending', 'Ana Tester'],
    ]);
    expect(data.history).toEqual([{
      id: doneMatch.id, exchangeRequestId: done.id, exchangeMatchId: doneMatch.id, fromCurrency: 'GBP', toCurrency: 'CLP', fromAmount: 100,
      toAmount: 127_500, exchangeRate: 1275, status: 'completed', completedAt: expect.any(String), userRole: 'requester',
    }]);
    // Whom she blocked (not who blocked her: that is Di's data).
    expect(data.blockedUsers).toEqual([{ userId: bo.userId, firstName: 'Bo', lastName: 'Tester', profileImageUrl: null, blockedAt: expect.any(String) }]);
    expect(data.chatMessages).toEqual([]);
    expect(await inProgress(ana.userId)).toBe(2);
    expect((await internal(`/internal/trades-in-progress?userId=${ana.userId}`, { kind: 'service', service: 'accounts' })).statusCode).toBe(403);

    const before = (await exchange.published()).length;
    const deleted = makeEvent('userDeleted', ana.userId, { userId: ana.userId });
    await exchange.svc.deliver(deleted);
    const published = (await exchange.published()).slice(before);
    // Each match ended says so in its chat too.
    expect(published.filter((e) => e.type === 'exchange.chat.message-posted').map((e) => (e.payload as { matchId: number }).matchId).sort())
      .toEqual([cyMatch.id, anaOnCys.id].sort());
    const events = published.filter((e) => e.type !== 'exchange.chat.message-posted').map((e) => [e.type, e.payload]);
    expect(events).toEqual(expect.arrayContaining([
      ['exchange.request.cancelled', { requestId: open.id, userId: ana.userId }],
      ['exchange.request.cancelled', { requestId: acceptedByCy.id, userId: ana.userId }],
      ['exchange.match.cancelled', { matchId: cyMatch.id, requestId: acceptedByCy.id, requesterId: ana.userId, matcherId: cy.userId, cancelledById: ana.userId, reason: 'request-cancelled' }],
      ['exchange.match.cancelled', { matchId: anaOnCys.id, requestId: cys.id, requesterId: cy.userId, matcherId: ana.userId, cancelledById: ana.userId, reason: 'withdrawn' }],
    ]));
    expect(events).toHaveLength(4);

    // Her requests leave the market, Cy's is open again, and her card (where it still shows) is a deleted user's.
    const market = ExchangeRequestList.parse(await ok('GET', '/exchange-requests?limit=500', di.headers));
    expect(market.map((r) => r.id).sort()).toEqual([cys.id, dis.id].sort());
    const completed = ExchangeRequest.parse(await ok('GET', `/exchange-requests/${done.id}`, bo.headers));
    expect([completed.status, completed.user.firstName, completed.user.lastName, completed.user.profileImageUrl])
      .toEqual(['completed', DeletedUser.firstName, DeletedUser.lastName, null]);
    const cyMatches = ExchangeMatchList.parse(await ok('GET', '/exchange-matches', cy.headers));
    expect(cyMatches.find((m) => m.id === anaOnCys.id)).toMatchObject({ status: 'cancelled', matcherName: DeletedUser.firstName });
    // Bo's history keeps the exchange (identity names the other party; it is not running here).
    expect(TransactionHistory.parse(await ok('GET', '/transaction-history', bo.headers)).map((h) => h.exchangeMatchId)).toEqual([doneMatch.id]);
    expect(await inProgress(ana.userId)).toBe(0);
    // Whom she blocked is gone with her account.
    expect(ExchangePersonalData.parse((await internal(`/internal/personal-data/trades?userId=${ana.userId}`)).json()).blockedUsers).toEqual([]);

    // A post or an accept already on its way when her account was deleted is refused.
    for (const res2 of [await call('POST', '/exchange-requests', ana.headers, GBP_100), await call('POST', '/exchange-matches', ana.headers, { exchangeRequestId: dis.id })]) {
      expect([res2.statusCode, ErrorBody.parse(res2.json()).message]).toEqual([403, ACCOUNT_DELETED]);
    }

    // Delivered again, the deletion changes nothing more.
    await exchange.svc.deliver(deleted);
    expect((await exchange.published()).length).toBe(before + published.length);
  });
});
