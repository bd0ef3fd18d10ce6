/**
 * A user's data: their requests, matches, completed exchanges and disputes in their data download, the count that
 * lets identity refuse a deletion mid-trade, and what their deletion does here: their card shows a deleted user, what
 * they had open ends, their completed exchanges stay, their disputes stay without their statements or sanctions, and
 * they can no longer post or accept.
 */
import { expect, it } from 'vitest';
import {
  DeletedUser, Dispute, DisputeDetail, DisputeOutcomes, ErrorBody, ExchangeMatch, ExchangeMatchList, ExchangePersonalData, ExchangeRequest,
  ExchangeRequestList, TradesInProgress, TransactionHistory,
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
  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (method: Method, url: string, headers: Headers, payload?: object) =>
    exchange.svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const ok = async (method: Method, url: string, headers: Headers, payload?: object) => {
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
    expect(data.disputes).toEqual([]);
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

  it('downloads the disputes of a user\'s matches with only their own statements; once deleted, keeps the disputes without their words or sanctions', async () => {
    const [ana, bo, cy] = [await trader(exchange.svc, 11, { firstName: 'Ana' }), await trader(exchange.svc, 12, { firstName: 'Bo' }),
      await trader(exchange.svc, 13, { firstName: 'Cy' })];
    const admin = await exchange.svc.as({ kind: 'user', userId: 900, role: 'admin' });
    const confirmed = async (requester: typeof ana, matcher: typeof ana) => {
      const match = await accept(matcher.headers, (await post(requester.headers)).id);
      await ok('PUT', `/exchange-matches/${match.id}/confirm`, requester.headers);
      return match;
    };
    const outcomes = async (userId: number) => DisputeOutcomes.parse(await ok('GET', `/users/${userId}/dispute-outcomes`, {}));
    const download = async (userId: number) => ExchangePersonalData.parse((await internal(`/internal/personal-data/trades?userId=${userId}`)).json()).disputes;
    // Ana disputes her trade with Bo, who is warned; Cy disputes hers with Ana, who is suspended until an admin lifts it.
    const withBo = await confirmed(ana, bo);
    const anasStatement = 'Bo\'s pesos never arrived in my account';
    const byAna = Dispute.parse(await ok('POST', `/exchange-matches/${withBo.id}/dispute`, ana.headers, { reason: 'no_payment', statement: anasStatement }));
    await ok('POST', `/admin/disputes/${byAna.id}/resolve`, admin, { outcome: 'completed', sanction: { userId: bo.userId, kind: 'warning' }, note: 'Bo paid late' });
    const withCy = await confirmed(cy, ana);
    const cysStatement = 'The pounds came from a stranger\'s account';
    const byCy = Dispute.parse(await ok('POST', `/exchange-matches/${withCy.id}/dispute`, cy.headers, { reason: 'third_party_payment', statement: cysStatement }));
    await ok('POST', `/admin/disputes/${byCy.id}/resolve`, admin, { outcome: 'cancelled', sanction: { userId: ana.userId, kind: 'suspension' }, note: 'Third-party payment' });
    expect((await call('DELETE', `/admin/trading-suspensions/${ana.userId}`, admin)).statusCode).toBe(204);

    const resolvedAt = exchange.now.toISOString();
    const common = { status: 'resolved', openedAt: resolvedAt, resolvedAt };
    const first = { id: byAna.id, matchId: withBo.id, exchangeRequestId: withBo.exchangeRequestId, openedById: ana.userId, reason: 'no_payment', outcome: 'completed', adminNote: 'Bo paid late', ...common };
    const second = { id: byCy.id, matchId: withCy.id, exchangeRequestId: withCy.exchangeRequestId, openedById: cy.userId, reason: 'third_party_payment', outcome: 'cancelled', adminNote: 'Third-party payment', ...common };
    // Her own statement in full, not Cy's (Cy's words are Cy's data); the sanction she got, not the one Bo got.
    expect(await download(ana.userId)).toEqual([
      { ...first, statement: anasStatement, sanctionOnUser: null },
      { ...second, statement: null, sanctionOnUser: { kind: 'suspension', liftedAt: resolvedAt } },
    ]);
    expect(await download(bo.userId)).toEqual([{ ...first, statement: null, sanctionOnUser: { kind: 'warning', liftedAt: null } }]);
    const countsBefore = { bo: await outcomes(bo.userId), cy: await outcomes(cy.userId) };
    expect(countsBefore).toEqual({ bo: { completed: 1, cancelled: 0, warnings: 1, suspensions: 0 }, cy: { completed: 0, cancelled: 1, warnings: 0, suspensions: 0 } });
    expect(await outcomes(ana.userId)).toEqual({ completed: 1, cancelled: 1, warnings: 0, suspensions: 1 });

    await exchange.svc.deliver(makeEvent('userDeleted', ana.userId, { userId: ana.userId }));
    // Both disputes stay, with how they ended: Bo and Cy's profiles count them as before; Ana's sanctions are gone.
    expect({ bo: await outcomes(bo.userId), cy: await outcomes(cy.userId) }).toEqual(countsBefore);
    expect(await outcomes(ana.userId)).toEqual({ completed: 1, cancelled: 1, warnings: 0, suspensions: 0 });
    // Her statement is erased wherever the dispute shows; Cy's stays, and so does Bo's warning.
    const seenByBo = Dispute.parse(await ok('GET', `/exchange-matches/${withBo.id}/dispute`, bo.headers));
    expect([seenByBo.statement, seenByBo.outcome, seenByBo.sanction]).toEqual(['', 'completed', { userId: bo.userId, kind: 'warning' }]);
    const decided = DisputeDetail.parse(await ok('GET', `/admin/disputes/${byCy.id}`, admin));
    expect([decided.dispute.statement, decided.dispute.outcome, decided.dispute.sanction]).toEqual([cysStatement, 'cancelled', null]);
    expect([decided.matcher.firstName, decided.matcher.warnings, decided.matcher.suspended]).toEqual([DeletedUser.firstName, 0, false]);
    expect((await download(bo.userId))[0]!.sanctionOnUser).toEqual({ kind: 'warning', liftedAt: null });
    expect((await download(cy.userId)).map((d) => [d.id, d.statement])).toEqual([[byCy.id, cysStatement]]);
    expect((await download(ana.userId)).map((d) => [d.statement, d.sanctionOnUser])).toEqual([['', null], [null, null]]);
  });
});
