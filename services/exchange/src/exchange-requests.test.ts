import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ErrorBody, ExchangeMatch, ExchangeMatchList, ExchangeRequest, ExchangeRequestList, Message, TransactionHistory, type Currency,
} from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra } from '@puente/testkit';
import { accountRemoved, rated, tierChanged, trader, useExchangeService } from './testing/traders.ts';

type Trader = Awaited<ReturnType<typeof trader>>;
type Body = { fromCurrency: Currency; toCurrency: Currency; amount: number; exchangeRate: number };
const NOW = '2026-03-10T12:00:00.000Z';
const NEEDS_BOTH = 'You need both GBP and CLP accounts to create an exchange request';
const gbp = (amount: number, exchangeRate = 1275): Body => ({ fromCurrency: 'GBP', toCurrency: 'CLP', amount, exchangeRate });
const clp = (amount: number, exchangeRate = 1275): Body => ({ fromCurrency: 'CLP', toCurrency: 'GBP', amount, exchangeRate });
const card = (t: Trader, trustRating: number | null = null) => ({
  firstName: `User${t.userId}`, lastName: 'Tester', profileImageUrl: null, trustRating, transactionCount: 0,
  completionRate: null, averageCompletionMinutes: null, memberSince: t.registeredAt,
});

/** The calls of these tests, on one running service. */
function calls(get: () => TestService) {
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, headers: Record<string, string> = {}, payload?: object) =>
    get().app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return {
    inject,
    post: (t: Trader, body: Body) => inject('POST', '/exchange-requests', t.headers, body),
    /** Posts and expects 201; the request through its contract. */
    async posted(t: Trader, body: Body): Promise<ExchangeRequest> {
      const res = await inject('POST', '/exchange-requests', t.headers, body);
      expect(res.statusCode, res.body).toBe(201);
      return ExchangeRequest.parse(res.json());
    },
    async list(t: Trader, url: string): Promise<{ items: ExchangeRequest[]; total: number }> {
      const res = await inject('GET', url, t.headers);
      expect(res.statusCode, res.body).toBe(200);
      return { items: ExchangeRequestList.parse(res.json()), total: Number(res.headers['x-total-count']) };
    },
    async accepted(t: Trader, exchangeRequestId: number): Promise<ExchangeMatch> {
      const res = await inject('POST', '/exchange-matches', t.headers, { exchangeRequestId });
      expect(res.statusCode, res.body).toBe(201);
      return ExchangeMatch.parse(res.json());
    },
    async action(t: Trader, id: number, action: 'cancel' | 'complete', status = 200) {
      const res = await inject('PATCH', `/exchange-requests/${id}/${action}`, t.headers);
      expect(res.statusCode, res.body).toBe(status);
      return res.json<unknown>();
    },
  };
}

describeWithInfra(['postgres'], 'exchange requests', () => {
  const h = useExchangeService(NOW);
  const api = calls(() => h.svc);
  let nextUser = 100;
  const newTrader = (opts?: Parameters<typeof trader>[2]) => trader(h.svc, nextUser++, opts);
  beforeEach(() => { h.setClock(NOW); });

  describe('POST /exchange-requests', () => {
    it('creates an open request with the poster\'s card, amount and rate exactly as sent', async () => {
      const ana = await newTrader();
      const first = await api.posted(ana, gbp(100.5));
      expect(first).toEqual({ id: first.id, userId: ana.userId, ...gbp(100.5), status: 'open', createdAt: NOW, user: card(ana) });
      h.advance(60_000);
      const second = await api.posted(ana, clp(255_000, 1300.1234));
      expect(second).toEqual({
        id: second.id, userId: ana.userId, ...clp(255_000, 1300.1234), status: 'open', createdAt: '2026-03-10T12:01:00.000Z', user: card(ana),
      });
      // Anyone signed in reads it back the same.
      const res = await api.inject('GET', `/exchange-requests/${first.id}`, (await newTrader()).headers);
      expect(ExchangeRequest.parse(res.json())).toEqual(first);
    });

    it('refuses a target that is not the other currency, and amounts not positive or not fitting the currency', async () => {
      const ana = await newTrader();
      const cases: [Body, string, string][] = [
        [{ ...gbp(10), toCurrency: 'GBP' }, 'toCurrency', 'The target currency must be the other currency'],
        [{ ...clp(1000), toCurrency: 'CLP' }, 'toCurrency', 'The target currency must be the other currency'],
        [gbp(0), 'amount', 'Amount must be positive'],
        [clp(-5), 'amount', 'Amount must be positive'],
        [gbp(10.005), 'amount', 'GBP amounts can have at most 2 decimals'],
        [clp(1000.5), 'amount', 'CLP amounts must be whole pesos'],
      ];
      for (const [body, field, message] of cases) {
        const res = await api.post(ana, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(ErrorBody.parse(res.json())).toEqual({ message, code: 'validation_failed', errors: [{ field, message }] });
      }
      expect(await api.list(ana, '/exchange-requests/user')).toEqual({ items: [], total: 0 });
    });

    it('needs both a GBP and a CLP account, and learns of a removed account', async () => {
      const refused = async (t: Trader) => {
        const res = await api.post(t, gbp(50));
        expect(res.statusCode).toBe(403);
        expect(ErrorBody.parse(res.json())).toEqual({ message: NEEDS_BOTH, code: 'forbidden' });
      };
      await refused(await newTrader({ accounts: ['GBP'] }));
      await refused(await newTrader({ accounts: ['CLP'] }));
      await refused(await newTrader({ accounts: [] }));
      const ana = await newTrader();
      await api.posted(ana, gbp(50));
      await accountRemoved(h.svc, ana.accounts.CLP!);
      await refused(ana);
    });

    it('takes a rate within 10% of the market rate (1275.0000), and names the band otherwise', async () => {
      const ana = await newTrader();
      expect((await api.posted(ana, gbp(20, 1147.5))).exchangeRate).toBe(1147.5);
      expect((await api.posted(ana, clp(20_000, 1402.5))).exchangeRate).toBe(1402.5);
      const message = 'The exchange rate must be within 10% of the market rate (1275.0000): from 1147.5000 to 1402.5000';
      for (const rate of [1147.4999, 1402.5001]) {
        const res = await api.post(await newTrader(), gbp(20, rate));
        expect(res.statusCode).toBe(400);
        expect(ErrorBody.parse(res.json())).toEqual({ message, code: 'validation_failed', errors: [{ field: 'exchangeRate', message }] });
      }
    });

    it('answers a visitor 401 on every request route', async () => {
      const { id } = await api.posted(await newTrader(), gbp(10));
      for (const [method, url] of [['POST', '/exchange-requests'], ['GET', '/exchange-requests'], ['GET', '/exchange-requests/user'],
        ['GET', '/exchange-requests/limits'], ['GET', `/exchange-requests/${id}`], ['PATCH', `/exchange-requests/${id}/cancel`],
        ['PATCH', `/exchange-requests/${id}/complete`], ['POST', `/exchange-requests/${id}/notify`]] as const) {
        const res = await api.inject(method, url, {}, method === 'POST' ? gbp(10) : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(ErrorBody.parse(res.json())).toEqual({ message: 'Authentication required', code: 'unauthorized' });
      }
    });
  });

  describe('reading requests', () => {
    it('GET /exchange-requests/user: the caller\'s own, every status, newest first, paginated', async () => {
      const ana = await newTrader();
      await api.posted(await newTrader(), gbp(10)); // someone else's
      const a = await api.posted(ana, gbp(10));
      const b = await api.posted(ana, clp(10_000));
      await tierChanged(h.svc, ana.userId, 'premium');
      const c = await api.posted(ana, gbp(30));
      await api.action(ana, a.id, 'cancel');
      await api.action(ana, b.id, 'complete');
      const all = [{ ...c }, { ...b, status: 'completed' }, { ...a, status: 'cancelled' }];
      expect(await api.list(ana, '/exchange-requests/user')).toEqual({ items: all, total: 3 });
      expect(await api.list(ana, '/exchange-requests/user?limit=2')).toEqual({ items: all.slice(0, 2), total: 3 });
      expect(await api.list(ana, '/exchange-requests/user?limit=2&offset=2')).toEqual({ items: all.slice(2), total: 3 });
    });

    it('GET /exchange-requests/{id} and its actions: 404 for an unknown id, 400 for a non-numeric one', async () => {
      const ana = await newTrader();
      for (const [method, suffix] of [['GET', ''], ['PATCH', '/cancel'], ['PATCH', '/complete'], ['POST', '/notify']] as const) {
        const unknown = await api.inject(method, `/exchange-requests/999999${suffix}`, ana.headers);
        expect(unknown.statusCode, `${method} ${suffix}`).toBe(404);
        expect(ErrorBody.parse(unknown.json())).toEqual({ message: 'Exchange request not found', code: 'not_found' });
        const invalid = await api.inject(method, `/exchange-requests/abc${suffix}`, ana.headers);
        expect(invalid.statusCode, `${method} ${suffix}`).toBe(400);
        expect(ErrorBody.parse(invalid.json())).toEqual({
          message: 'Invalid exchange request ID', code: 'validation_failed', errors: [{ field: 'id', message: 'Invalid exchange request ID' }],
        });
      }
    });
  });

  describe('PATCH /exchange-requests/{id}/cancel and /complete', () => {
    it('cancel: the owner only, an open request; a cancelled one no more', async () => {
      const [ana, bob] = [await newTrader(), await newTrader()];
      const request = await api.posted(ana, gbp(40));
      expect(ErrorBody.parse(await api.action(bob, request.id, 'cancel', 403)))
        .toEqual({ message: 'Only the owner can cancel this exchange request', code: 'forbidden' });
      expect(ExchangeRequest.parse(await api.action(ana, request.id, 'cancel'))).toEqual({ ...request, status: 'cancelled' });
      expect(ErrorBody.parse(await api.action(ana, request.id, 'cancel', 409)))
        .toEqual({ message: 'This exchange request is cancelled: only an open or matched request can be cancelled', code: 'conflict' });
      expect((await api.list(bob, '/exchange-requests?limit=500')).items.map((r) => r.id)).not.toContain(request.id);
    });

    it('cancel of a matched request cancels its pending match and tells the matcher; a confirmed one is 409', async () => {
      const [ana, bob] = [await newTrader(), await newTrader()];
      const request = await api.posted(ana, gbp(40));
      const match = await api.accepted(bob, request.id);
      const current = async () => ExchangeMatch.nullable().parse((await api.inject('GET', `/exchange-matches/request/${request.id}`, bob.headers)).json());
      expect(await current()).toEqual(match);
      expect(ExchangeRequest.parse(await api.action(ana, request.id, 'cancel'))).toEqual({ ...request, status: 'cancelled' });
      expect(await current()).toBeNull();
      const cancelled = (await h.published()).filter((e) => e.type === 'exchange.match.cancelled' && e.aggregateId === String(match.id));
      expect(cancelled.map((e) => e.payload)).toEqual([{
        matchId: match.id, requestId: request.id, requesterId: ana.userId, matcherId: bob.userId, cancelledById: ana.userId, reason: 'request-cancelled',
      }]);

      const confirmedRequest = await api.posted(ana, gbp(60));
      const confirmed = await api.accepted(bob, confirmedRequest.id);
      expect((await api.inject('PUT', `/exchange-matches/${confirmed.id}/confirm`, ana.headers)).statusCode).toBe(200);
      expect(ErrorBody.parse(await api.action(ana, confirmedRequest.id, 'cancel', 409)))
        .toEqual({ message: 'This exchange request is confirmed: only an open or matched request can be cancelled', code: 'conflict' });
    });

    it('complete: the owner only; an open request leaves the market for the owner\'s history alone; a matched one is 409', async () => {
      const [ana, bob] = [await newTrader(), await newTrader()];
      const request = await api.posted(ana, clp(100_000));
      expect(ErrorBody.parse(await api.action(bob, request.id, 'complete', 403)))
        .toEqual({ message: 'Only the owner can mark this exchange request done', code: 'forbidden' });
      expect((await api.list(bob, '/exchange-requests?limit=500')).items).toContainEqual(request);
      expect(ExchangeRequest.parse(await api.action(ana, request.id, 'complete'))).toEqual({ ...request, status: 'completed' });
      expect((await api.list(bob, '/exchange-requests?limit=500')).items.map((r) => r.id)).not.toContain(request.id);
      // Hers with no match and nobody else (history.test.ts has the row); none of Bob's.
      for (const [t, rows] of [[ana, [[request.id, null]]], [bob, []]] as const) {
        const history = await api.inject('GET', '/transaction-history', t.headers);
        expect(TransactionHistory.parse(history.json()).map((h) => [h.exchangeRequestId, h.exchangeMatchId])).toEqual(rows);
        expect(history.headers['x-total-count']).toBe(String(rows.length));
      }

      const matched = await api.posted(ana, gbp(70));
      await api.accepted(bob, matched.id);
      expect(ErrorBody.parse(await api.action(ana, matched.id, 'complete', 409))).toEqual({
        message: 'This exchange request is matched: only an open request can be marked done (a matched one completes through its match)', code: 'conflict',
      });
    });
  });

  it('publishes request created (amount and rate as decimal strings), cancelled and completed', async () => {
    const ana = await newTrader();
    const one = await api.posted(ana, gbp(100.5));
    const two = await api.posted(ana, clp(255_000, 1300.1234));
    await api.action(ana, one.id, 'cancel');
    await api.action(ana, two.id, 'complete');
    const mine = (await h.published()).filter((e) => e.type.startsWith('exchange.request.') && (e.payload as { userId: number }).userId === ana.userId);
    expect(mine.map((e) => ({ type: e.type, version: e.version, aggregateId: e.aggregateId, payload: e.payload }))).toEqual([
      { type: 'exchange.request.created', version: 1, aggregateId: String(one.id), payload: {
        requestId: one.id, userId: ana.userId, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.50', exchangeRate: '1275.0000' } },
      { type: 'exchange.request.created', version: 1, aggregateId: String(two.id), payload: {
        requestId: two.id, userId: ana.userId, fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000', exchangeRate: '1300.1234' } },
      { type: 'exchange.request.cancelled', version: 1, aggregateId: String(one.id), payload: { requestId: one.id, userId: ana.userId } },
      { type: 'exchange.request.completed', version: 1, aggregateId: String(two.id), payload: { requestId: two.id, userId: ana.userId } },
    ]);
  });

  it('the poster\'s card shows their trade record: completion rate, average minutes from confirmation to completion, member since', async () => {
    const ana = await newTrader();
    await tierChanged(h.svc, ana.userId, 'premium'); // four requests in one day
    // identity's createdAt comes just before its registration event (the snapshot brings it): the earliest is kept.
    const joined = '2025-11-02T08:00:00.000Z';
    const registration = makeEvent('userRegistered', ana.userId, { userId: ana.userId, firstName: `User${ana.userId}`, lastName: 'Tester', role: 'user', referrerId: null });
    await h.svc.deliver({ ...registration, occurredAt: joined });
    const step = async (t: Trader, matchId: number, action: 'confirm' | 'complete') =>
      expect((await api.inject('PUT', `/exchange-matches/${matchId}/${action}`, t.headers)).statusCode).toBe(200);
    /** Ana's request taken by `matcher`, approved now, and completed `minutes` later unless null. */
    async function trade(matcher: Trader, minutes: number | null) {
      const match = await api.accepted(matcher, (await api.posted(ana, gbp(20))).id);
      await step(ana, match.id, 'confirm');
      if (minutes === null) return;
      h.advance(minutes * 60_000);
      await step(matcher, match.id, 'complete');
    }
    const [bea, cruz, dan] = [await newTrader(), await newTrader(), await newTrader()];
    await trade(bea, 30);
    await trade(cruz, 45);
    await trade(dan, null);

    const viewer = await newTrader();
    /** The card on a new request of `t`, as posted and as the market list shows it (one SQL query). */
    async function cardOf(t: Trader) {
      const posted = await api.posted(t, gbp(10));
      expect((await api.list(viewer, '/exchange-requests?limit=500')).items.find((x) => x.id === posted.id)?.user).toEqual(posted.user);
      return posted.user;
    }
    // 2 of 3 confirmed matches completed; 30 and 45 minutes average 37.5, shown as 38.
    expect(await cardOf(ana)).toEqual({ ...card(ana), transactionCount: 2, completionRate: 66.7, averageCompletionMinutes: 38, memberSince: joined });
    expect(await cardOf(bea)).toEqual({ ...card(bea), transactionCount: 1, completionRate: 100, averageCompletionMinutes: 30 });
    expect(await cardOf(dan)).toEqual({ ...card(dan), completionRate: 0 });
  });
});

/** On a database of its own: the market and the count of users to notify are exact. */
describeWithInfra(['postgres'], 'the market list and notifications', () => {
  const h = useExchangeService(NOW);
  const api = calls(() => h.svc);
  let ana: Trader, bob: Trader, cleo: Trader, max: Trader, xia: Trader;
  let r: ExchangeRequest[];

  beforeAll(async () => {
    [ana, bob, cleo, max, xia] = await Promise.all([trader(h.svc, 100), trader(h.svc, 101), trader(h.svc, 102), trader(h.svc, 103), trader(h.svc, 104)]);
    for (const t of [ana, bob, cleo, max, xia]) await tierChanged(h.svc, t.userId, 'premium');
    await rated(h.svc, ana.userId, '4.50', 2);
    await rated(h.svc, bob.userId, '3.00', 1);
    const post = async (t: Trader, body: Body) => { h.advance(60_000); return api.posted(t, body); };
    r = [
      await post(ana, gbp(150)), // 0: open
      await post(bob, clp(200_000, 1300)), // 1: open
      await post(cleo, gbp(50, 1200)), // 2: open
      await post(ana, clp(100_000, 1250)), // 3: matched by max (pending)
      await post(bob, gbp(120, 1280)), // 4: matched by xia, confirmed
      await post(cleo, clp(50_000)), // 5: cancelled
      await post(cleo, gbp(90)), // 6: completed by its owner
      await post(max, gbp(80)), // 7: max's own, matched by ana
    ];
    await api.accepted(max, r[3]!.id);
    const confirmed = await api.accepted(xia, r[4]!.id);
    expect((await api.inject('PUT', `/exchange-matches/${confirmed.id}/confirm`, bob.headers)).statusCode).toBe(200);
    await api.action(cleo, r[5]!.id, 'cancel');
    await api.action(cleo, r[6]!.id, 'complete');
    await api.accepted(ana, r[7]!.id);
  });

  /** The requests as the list shows them now, by index into r. */
  const shown = (...indexes: number[]) => indexes.map((i) => {
    const status = i === 3 || i === 7 ? 'matched' : i === 4 ? 'confirmed' : 'open';
    const trust = r[i]!.userId === ana.userId ? 4.5 : r[i]!.userId === bob.userId ? 3 : null;
    // Bob approved xia's match on his request 4: none of his confirmed matches completed yet.
    const completionRate = r[i]!.userId === bob.userId ? 0 : null;
    return { ...r[i]!, status, user: { ...r[i]!.user, trustRating: trust, completionRate } };
  });

  it('shows everyone\'s open requests, newest first: the same list for every user, whatever their own trades', async () => {
    for (const t of [max, xia, ana, bob, cleo]) expect(await api.list(t, '/exchange-requests')).toEqual({ items: shown(2, 1, 0), total: 3 });
    // Their own trades are their own lists.
    expect((await api.list(max, '/exchange-requests/user')).items.map((x) => x.id)).toEqual([r[7]!.id]);
    const anaMatches = await api.inject('GET', '/exchange-matches', ana.headers);
    expect(ExchangeMatchList.parse(anaMatches.json()).map((m) => m.exchangeRequestId)).toEqual([r[7]!.id, r[3]!.id]); // accepted, and hers accepted
    // The poster's card: names from identity's events, trust from rating's.
    expect(shown(0)[0]!.user).toEqual({ ...card(ana), trustRating: 4.5 });
  });

  it('pages with limit and offset, the total in X-Total-Count', async () => {
    expect(await api.list(max, '/exchange-requests?limit=2')).toEqual({ items: shown(2, 1), total: 3 });
    expect(await api.list(max, '/exchange-requests?limit=2&offset=2')).toEqual({ items: shown(0), total: 3 });
    expect(await api.list(max, '/exchange-requests?offset=10')).toEqual({ items: [], total: 3 });
  });

  it('filters by direction, amount in that currency, and minimum trust; sorts by amount, rate, trust', async () => {
    const ids = async (query: string) => (await api.list(cleo, `/exchange-requests?${query}`)).items.map((x) => r.findIndex((y) => y.id === x.id));
    expect(await ids('fromCurrency=GBP')).toEqual([2, 0]);
    expect(await ids('fromCurrency=CLP')).toEqual([1]);
    expect(await ids('fromCurrency=GBP&minAmount=100')).toEqual([0]);
    expect(await ids('fromCurrency=GBP&maxAmount=100')).toEqual([2]);
    expect(await ids('fromCurrency=CLP&minAmount=200000&maxAmount=200000')).toEqual([1]);
    expect(await ids('minTrust=4')).toEqual([0]);
    expect(await ids('minTrust=3')).toEqual([1, 0]);
    expect(await ids('minTrust=0')).toEqual([1, 0]);
    expect(await ids('fromCurrency=GBP&sort=amount')).toEqual([0, 2]);
    expect(await ids('sort=rate')).toEqual([1, 0, 2]);
    expect(await ids('sort=trust')).toEqual([0, 1, 2]);
    expect(await ids('sort=newest')).toEqual([2, 1, 0]);
    const message = 'minAmount and maxAmount need fromCurrency (amounts are in the request\'s own currency)';
    for (const field of ['minAmount', 'maxAmount']) {
      const res = await api.inject('GET', `/exchange-requests?${field}=10`, cleo.headers);
      expect(res.statusCode).toBe(400);
      expect(ErrorBody.parse(res.json())).toEqual({ message, code: 'validation_failed', errors: [{ field, message }] });
    }
  });

  it('POST /exchange-requests/{id}/notify: the owner of an open request, once an hour, counting who could take it', async () => {
    await trader(h.svc, 105, { accounts: ['GBP'] }); // cannot take it: one account only
    const notify = (t: Trader, id: number) => api.inject('POST', `/exchange-requests/${id}/notify`, t.headers);
    const open = r[0]!;
    const other = await notify(bob, open.id);
    expect(other.statusCode).toBe(403);
    expect(ErrorBody.parse(other.json())).toEqual({ message: 'Only the owner can send notifications about this exchange request', code: 'forbidden' });
    const cancelled = await notify(cleo, r[5]!.id);
    expect(cancelled.statusCode).toBe(409);
    expect(ErrorBody.parse(cancelled.json())).toEqual({ message: 'This exchange request is cancelled: only an open request can be announced', code: 'conflict' });

    const before = (await h.published()).length;
    const first = await notify(ana, open.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(Message.parse(first.json())).toEqual({ message: '4 users will be notified about your exchange request.' });
    const sent = (await h.published()).slice(before);
    expect(sent.map((e) => ({ type: e.type, version: e.version, payload: e.payload }))).toEqual([{
      type: 'exchange.request.notifications-sent', version: 2,
      payload: { requestId: open.id, userId: ana.userId, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '150.00', exchangeRate: '1275.0000' },
    }]);

    h.advance(30 * 60_000);
    const again = await notify(ana, open.id);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('1800');
    expect(ErrorBody.parse(again.json())).toEqual({
      message: 'Notifications for this exchange request were sent less than an hour ago. Try again in 30 minutes.', code: 'rate_limited',
    });
    expect((await h.published()).length).toBe(before + 1);

    h.advance(30 * 60_000);
    for (const t of [bob, cleo, xia]) await accountRemoved(h.svc, t.accounts.GBP!);
    const later = await notify(ana, open.id);
    expect(later.statusCode, later.body).toBe(200);
    expect(Message.parse(later.json())).toEqual({ message: '1 user will be notified about your exchange request.' });
  });
});
