import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import {
  AcceptRefusal, ErrorBody, InternalMatch, ExchangeMatch, ExchangeMatchForRequest, ExchangeMatchList, ExchangeRequest, ExchangeRequestList, TransactionHistory,
} from '@puente/contracts';
import type { Party } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { SWEEP_TRADE_TIMERS } from './jobs/sweep-trade-timers.ts';
import { publishedPayloads, startExchangeOnClock, tierChanged, trader } from './testing/traders.ts';

type Headers = Record<string, string>;
type RequestBody = { fromCurrency: 'GBP' | 'CLP'; toCurrency: 'GBP' | 'CLP'; amount: number; exchangeRate: number };
const GBP_100_50: RequestBody = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100.5, exchangeRate: 1275 };
const NOT_OPEN = { message: 'This exchange request is no longer open', code: 'conflict' };
/** Worded for accepting (the spec words it for posting), with its own code: the app links it to /accounts. */
const NEEDS_BOTH = { message: 'You need both GBP and CLP accounts to accept an exchange request', code: AcceptRefusal.bankAccounts };
const MATCH_NOT_FOUND = { message: 'Exchange match not found', code: 'not_found' };

describeWithInfra(['postgres'], 'exchange matches', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  let clock = new Date('2026-03-10T09:00:00.000Z');
  beforeAll(async () => {
    svc = await startExchangeOnClock(db.url, () => clock);
    await svc.ctx.jobs.unschedule(SWEEP_TRADE_TIMERS); // no timer runs behind these tests' backs
  });
  afterAll(async () => { await svc?.stop(); });

  let nextUser = 1;
  const user = (opts?: Parameters<typeof trader>[2]) => trader(svc, nextUser++, opts);
  const later = (ms = 60_000) => { clock = new Date(clock.getTime() + ms); };

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: Headers, payload?: unknown) =>
    svc.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const refusal = (res: LightMyRequestResponse, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    return ErrorBody.parse(res.json());
  };
  async function post(headers: Headers, body: RequestBody = GBP_100_50) {
    const res = await call('POST', '/exchange-requests', headers, body);
    expect(res.statusCode, res.body).toBe(201);
    return ExchangeRequest.parse(res.json());
  }
  async function ownerAction(headers: Headers, id: number, action: 'cancel' | 'complete') {
    expect((await call('PATCH', `/exchange-requests/${id}/${action}`, headers)).statusCode).toBe(200);
  }
  async function readRequest(headers: Headers, id: number) {
    const res = await call('GET', `/exchange-requests/${id}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return ExchangeRequest.parse(res.json());
  }
  async function market(headers: Headers) {
    const res = await call('GET', '/exchange-requests?limit=500', headers);
    expect(res.statusCode, res.body).toBe(200);
    return ExchangeRequestList.parse(res.json());
  }
  const accept = (headers: Headers, exchangeRequestId: unknown) => call('POST', '/exchange-matches', headers, { exchangeRequestId });
  async function accepted(headers: Headers, requestId: number) {
    const res = await accept(headers, requestId);
    expect(res.statusCode, res.body).toBe(201);
    return ExchangeMatch.parse(res.json());
  }
  const act = (headers: Headers, matchId: number, action: 'cancel' | 'confirm' | 'complete') =>
    call('PUT', `/exchange-matches/${matchId}/${action}`, headers);
  async function acted(headers: Headers, matchId: number, action: 'cancel' | 'confirm' | 'complete') {
    const res = await act(headers, matchId, action);
    expect(res.statusCode, res.body).toBe(200);
    return ExchangeMatch.parse(res.json());
  }
  /** The match as its parties see it once match and request have moved to these statuses. */
  const as = (m: ExchangeMatch, status: ExchangeMatch['status'], requestStatus: ExchangeRequest['status']): ExchangeMatch =>
    ({ ...m, status, exchangeRequest: { ...m.exchangeRequest, status: requestStatus } });
  const summary = ({ user: _user, ...rest }: ExchangeRequest) => rest;

  /** A poster's request accepted by a matcher: a pending match. */
  async function trade(body: RequestBody = GBP_100_50) {
    const poster = await user();
    const matcher = await user();
    const request = await post(poster.headers, body);
    const match = await accepted(matcher.headers, request.id);
    return { poster, matcher, request, match };
  }

  describe('GET /internal/matches/{id} (for the rating service)', () => {
    it('answers one match\'s parties and status now, to the rating service only; 404 for an unknown match', async () => {
      const { poster, matcher, request, match } = await trade();
      const internal = async (id: number, service: Party = 'rating') => call('GET', `/internal/matches/${id}`, await svc.as({ kind: 'service', service }));
      const res = await internal(match.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(InternalMatch.parse(res.json())).toEqual({ id: match.id, exchangeRequestId: request.id, requesterId: poster.userId, matcherId: matcher.userId, status: 'pending' });
      await acted(poster.headers, match.id, 'confirm');
      expect(InternalMatch.parse((await internal(match.id)).json()).status).toBe('confirmed');
      expect(refusal(await internal(999_999), 404)).toEqual({ message: 'Exchange match not found', code: 'not_found' });
      expect((await internal(match.id, 'identity')).statusCode).toBe(403);
      expect((await call('GET', `/internal/matches/${match.id}`, poster.headers)).statusCode).toBe(403);
    });
  });

  describe('POST /exchange-matches', () => {
    it('accepts another user\'s open request: a pending match, and the request is matched', async () => {
      const poster = await user();
      const matcher = await user({ firstName: 'First', lastName: 'Last' });
      const outsider = await user();
      const request = await post(poster.headers);
      const match = await accepted(matcher.headers, request.id);
      expect(match).toEqual({
        id: match.id, exchangeRequestId: request.id, matchedById: matcher.userId, matcherName: 'First Last', status: 'pending',
        createdAt: clock.toISOString(), exchangeRequest: { ...summary(request), status: 'matched' }, paidByIds: [], confirmedAt: null, payments: [], receipts: [], completedAt: null, completedById: null, receiptQuestion: null,
      });
      expect(await readRequest(outsider.headers, request.id)).toEqual({ ...request, status: 'matched' });
      expect((await market(outsider.headers)).map((r) => r.id)).not.toContain(request.id);
      expect((await publishedPayloads(svc, 'matchCreated')).filter((e) => e.matchId === match.id)).toEqual([{
        matchId: match.id, requestId: request.id, requesterId: poster.userId, matcherId: matcher.userId,
        fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.50', exchangeRate: '1275.0000',
      }]);
    });

    it('refuses the poster\'s own request (403) and an unknown request (404)', async () => {
      const poster = await user();
      const request = await post(poster.headers);
      expect(refusal(await accept(poster.headers, request.id), 403)).toEqual({ message: 'You cannot accept your own exchange request', code: 'forbidden' });
      expect(refusal(await accept(poster.headers, 999_999), 404)).toEqual({ message: 'Exchange request not found', code: 'not_found' });
      expect((await readRequest(poster.headers, request.id)).status).toBe('open');
    });

    it('refuses a request that is no longer open: matched, cancelled or completed (409)', async () => {
      const { request: matched } = await trade();
      const poster = await user();
      const cancelled = await post(poster.headers);
      await ownerAction(poster.headers, cancelled.id, 'cancel');
      const completed = await post(poster.headers);
      await ownerAction(poster.headers, completed.id, 'complete');
      const latecomer = await user();
      for (const id of [matched.id, cancelled.id, completed.id]) {
        expect(refusal(await accept(latecomer.headers, id), 409)).toEqual(NOT_OPEN);
      }
    });

    it('refuses a matcher without both a GBP and a CLP account (403 bank_accounts_required, worded for accepting)', async () => {
      const poster = await user();
      const request = await post(poster.headers);
      for (const accounts of [['GBP'], ['CLP'], []] as ('GBP' | 'CLP')[][]) {
        const matcher = await user({ accounts });
        expect(refusal(await accept(matcher.headers, request.id), 403)).toEqual(NEEDS_BOTH);
      }
      expect((await readRequest(poster.headers, request.id)).status).toBe('open');
    });

    it('refuses an amount above the free matcher\'s per-exchange limit, in the request\'s currency (403)', async () => {
      const premiumPoster = await user();
      await tierChanged(svc, premiumPoster.userId, 'premium');
      const pounds = await post(premiumPoster.headers, { ...GBP_100_50, amount: 500 });
      const pesos = await post(premiumPoster.headers, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 300_000, exchangeRate: 1275 });
      const freeMatcher = await user();
      expect(refusal(await accept(freeMatcher.headers, pounds.id), 403)).toEqual({
        message: 'Free plan limit reached: at most £200 per exchange. Upgrade to Premium for up to £10,000.', code: 'plan_limit',
      });
      expect(refusal(await accept(freeMatcher.headers, pesos.id), 403)).toEqual({
        message: 'Free plan limit reached: at most 255,000 CLP per exchange. Upgrade to Premium for up to 12,750,000 CLP.', code: 'plan_limit',
      });
      // The limit itself is allowed, and a premium matcher may take the larger amounts.
      const freePoster = await user();
      await accepted(freeMatcher.headers, (await post(freePoster.headers, { ...GBP_100_50, amount: 200 })).id);
      const premiumMatcher = await user();
      await tierChanged(svc, premiumMatcher.userId, 'premium');
      await accepted(premiumMatcher.headers, pounds.id);
      await accepted(premiumMatcher.headers, pesos.id);
    });

    it('refuses a matcher who has had the day\'s exchanges, posted or accepted (403); the next UTC day they may', async () => {
      const matcher = await user();
      await post(matcher.headers);
      await accepted(matcher.headers, (await post((await user()).headers)).id);
      const third = await post((await user()).headers);
      expect(refusal(await accept(matcher.headers, third.id), 403)).toEqual({
        message: 'Free plan limit reached: 2 exchanges per day. Upgrade to Premium for up to 20.', code: 'plan_limit',
      });
      later(24 * 3_600_000);
      await accepted(matcher.headers, third.id);
    });

    it('answers 400 for an exchange request id that is not a positive whole number', async () => {
      const matcher = await user();
      const message = 'Invalid exchange request ID';
      for (const id of ['abc', '12', 0, -3, 1.5, null, undefined]) {
        expect(refusal(await accept(matcher.headers, id), 400), String(id)).toEqual({
          message, code: 'validation_failed', errors: [{ field: 'exchangeRequestId', message }],
        });
      }
    });
  });

  it('100 concurrent accepts of one request: exactly one match, 99 answers 409', async () => {
    const poster = await user();
    const request = await post(poster.headers);
    const matchers = [];
    for (let i = 0; i < 100; i += 1) matchers.push(await user());
    const answers = await Promise.all(matchers.map((m) => accept(m.headers, request.id)));
    const won = answers.filter((a) => a.statusCode === 201);
    const lost = answers.filter((a) => a.statusCode !== 201);
    expect(won).toHaveLength(1);
    expect(lost.map((a) => [a.statusCode, ErrorBody.parse(a.json())])).toEqual(Array.from({ length: 99 }, () => [409, NOT_OPEN]));
    const rows = await svc.ctx.orm.em.fork().execute<{ matcher_id: number; status: string }[]>(
      'select matcher_id, status from exchange.exchange_match where request_id = ?', [request.id]);
    expect(rows).toEqual([{ matcher_id: ExchangeMatch.parse(won[0]!.json()).matchedById, status: 'pending' }]);
    expect((await readRequest(poster.headers, request.id)).status).toBe('matched');
  }, 60_000);

  describe('PUT /exchange-matches/{id}/cancel', () => {
    it('the matcher withdraws a pending match: the request is open again, in the market, and another user may take it', async () => {
      const { poster, matcher, request, match } = await trade();
      const other = await user();
      expect(await acted(matcher.headers, match.id, 'cancel')).toEqual(as(match, 'cancelled', 'open'));
      expect(await readRequest(other.headers, request.id)).toEqual(request);
      expect((await market(other.headers)).find((r) => r.id === request.id)).toEqual(request);
      expect((await publishedPayloads(svc, 'matchCancelled')).filter((e) => e.matchId === match.id)).toEqual([{
        matchId: match.id, requestId: request.id, requesterId: poster.userId, matcherId: matcher.userId, cancelledById: matcher.userId, reason: 'withdrawn',
      }]);
      // Only live matches hold a request: a new accept after the cancelled one is a new match.
      const again = await accepted(other.headers, request.id);
      expect(again).toEqual({ ...match, id: again.id, matchedById: other.userId, matcherName: `User${other.userId} Tester` });
    });

    it('the requester declines a pending match: the request is open again', async () => {
      const { poster, matcher, request, match } = await trade();
      expect(await acted(poster.headers, match.id, 'cancel')).toEqual(as(match, 'cancelled', 'open'));
      expect(await readRequest(matcher.headers, request.id)).toEqual(request);
      expect((await publishedPayloads(svc, 'matchCancelled')).filter((e) => e.matchId === match.id)).toEqual([{
        matchId: match.id, requestId: request.id, requesterId: poster.userId, matcherId: matcher.userId, cancelledById: poster.userId, reason: 'declined',
      }]);
    });

    it('an outsider gets 404; a confirmed match cannot be called off (409)', async () => {
      const { poster, matcher, match } = await trade();
      const outsider = await user();
      expect(refusal(await act(outsider.headers, match.id, 'cancel'), 404)).toEqual(MATCH_NOT_FOUND);
      await acted(poster.headers, match.id, 'confirm');
      for (const party of [poster, matcher]) {
        expect(refusal(await act(party.headers, match.id, 'cancel'), 409)).toEqual({
          message: 'This match is confirmed: only a pending match can be called off', code: 'conflict',
        });
      }
    });
  });

  describe('PUT /exchange-matches/{id}/confirm', () => {
    it('the requester approves a pending match (the matcher 403, an outsider 404): the request is confirmed', async () => {
      const { poster, matcher, request, match } = await trade();
      const outsider = await user();
      expect(refusal(await act(matcher.headers, match.id, 'confirm'), 403)).toEqual({ message: 'Only the requester can approve this match', code: 'forbidden' });
      expect(refusal(await act(outsider.headers, match.id, 'confirm'), 404)).toEqual(MATCH_NOT_FOUND);
      expect(await acted(poster.headers, match.id, 'confirm')).toEqual({ ...as(match, 'confirmed', 'confirmed'), confirmedAt: clock.toISOString() });
      // The poster's card counts the confirmed match: none of their confirmed matches completed yet.
      expect(await readRequest(outsider.headers, request.id)).toEqual({ ...request, status: 'confirmed', user: { ...request.user, completionRate: 0 } });
      expect(refusal(await act(poster.headers, match.id, 'confirm'), 409)).toEqual({
        message: 'This match is confirmed: only a pending match can be approved', code: 'conflict',
      });
      expect((await publishedPayloads(svc, 'matchConfirmed')).filter((e) => e.matchId === match.id)).toEqual([{
        matchId: match.id, requestId: request.id, requesterId: poster.userId, matcherId: matcher.userId,
        fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.50', exchangeRate: '1275.0000',
      }]);
    });

    it('a cancelled match cannot be approved (409)', async () => {
      const { poster, matcher, match } = await trade();
      await acted(matcher.headers, match.id, 'cancel');
      expect(refusal(await act(poster.headers, match.id, 'confirm'), 409)).toEqual({
        message: 'This match is cancelled: only a pending match can be approved', code: 'conflict',
      });
    });
  });

  describe('PUT /exchange-matches/{id}/complete', () => {
    it('either party completes a confirmed match, once: the request is completed and both parties\' counts rise', async () => {
      const { poster, matcher, request, match } = await trade();
      const outsider = await user();
      const pendingRefusal = { message: 'This match is pending: only a confirmed match can be marked completed', code: 'conflict' };
      expect(refusal(await act(poster.headers, match.id, 'complete'), 409)).toEqual(pendingRefusal);
      expect(refusal(await act(outsider.headers, match.id, 'complete'), 404)).toEqual(MATCH_NOT_FOUND);
      await acted(poster.headers, match.id, 'confirm');
      const confirmedAt = clock.toISOString();
      later(90 * 60_000);
      // The poster, who had not said they received their pesos, is asked (receipts.test.ts).
      const completedAt = clock.toISOString();
      expect(await acted(matcher.headers, match.id, 'complete')).toEqual({
        ...as(match, 'completed', 'completed'), confirmedAt, completedAt, completedById: matcher.userId,
        receiptQuestion: { askedId: poster.userId, askedAt: completedAt, dueAt: new Date(clock.getTime() + 72 * 3_600_000).toISOString(), answer: null, answeredAt: null },
      });
      // The poster's card counts the completed exchange (it was 0 when posted), and its 90 minutes from confirmation.
      const record = { transactionCount: 1, completionRate: 100, averageCompletionMinutes: 90 };
      expect(request.user).toMatchObject({ transactionCount: 0, completionRate: null, averageCompletionMinutes: null });
      expect(await readRequest(outsider.headers, request.id)).toEqual({ ...request, status: 'completed', user: { ...request.user, ...record } });
      for (const party of [poster, matcher]) {
        expect(refusal(await act(party.headers, match.id, 'complete'), 409)).toEqual({
          message: 'This match is completed: only a confirmed match can be marked completed', code: 'conflict',
        });
      }
      expect((await publishedPayloads(svc, 'matchCompleted')).filter((e) => e.matchId === match.id)).toEqual([{
        matchId: match.id, requestId: request.id, requesterId: poster.userId, matcherId: matcher.userId,
        fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.50', exchangeRate: '1275.0000', completedById: matcher.userId, confirmedAt,
      }]);
      for (const party of [poster, matcher]) {
        expect((await post(party.headers)).user).toEqual({
          firstName: `User${party.userId}`, lastName: 'Tester', profileImageUrl: null, trustRating: null, ...record, memberSince: party.registeredAt,
        });
      }
      expect((await post(outsider.headers)).user.transactionCount).toBe(0);
    });
  });

  describe('reading matches', () => {
    it('GET /exchange-matches: the caller\'s matches as either party, newest first, with X-Total-Count', async () => {
      const a = await user();
      const b = await user();
      const asRequester = await accepted(b.headers, (await post(a.headers)).id);
      later();
      const c = await user();
      const asMatcher = await accepted(a.headers, (await post(c.headers)).id);
      const list = async (headers: Headers, query = '') => {
        const res = await call('GET', `/exchange-matches${query}`, headers);
        expect(res.statusCode, res.body).toBe(200);
        return { total: res.headers['x-total-count'], items: ExchangeMatchList.parse(res.json()) };
      };
      expect(await list(a.headers)).toEqual({ total: '2', items: [asMatcher, asRequester] });
      expect(await list(a.headers, '?limit=1&offset=1')).toEqual({ total: '2', items: [asRequester] });
      expect(await list(b.headers)).toEqual({ total: '1', items: [asRequester] });
      expect(await list(c.headers)).toEqual({ total: '1', items: [asMatcher] });
      expect(await list((await user()).headers)).toEqual({ total: '0', items: [] });
    });

    it('GET /exchange-matches/request/{id}: the live match for its two parties; null for anyone else and without one', async () => {
      const { poster, matcher, request, match } = await trade();
      const outsider = await user();
      const current = async (headers: Headers, id: number | string) => {
        const res = await call('GET', `/exchange-matches/request/${id}`, headers);
        expect(res.statusCode, res.body).toBe(200);
        return ExchangeMatchForRequest.parse(res.json());
      };
      expect(await current(poster.headers, request.id)).toEqual(match);
      expect(await current(matcher.headers, request.id)).toEqual(match);
      expect(await current(outsider.headers, request.id)).toBeNull();
      expect(await current(poster.headers, (await post(outsider.headers)).id)).toBeNull();
      await acted(poster.headers, match.id, 'cancel');
      expect(await current(poster.headers, request.id)).toBeNull();
      expect(await current(matcher.headers, request.id)).toBeNull();
      expect(refusal(await call('GET', '/exchange-matches/request/abc', poster.headers), 400).message).toBe('Invalid exchange request ID');
    });

    it('GET /exchange-matches/{id}/accounts: an outsider 404; a party before approval 403', async () => {
      const { poster, matcher, match } = await trade();
      const outsider = await user();
      expect(refusal(await call('GET', `/exchange-matches/${match.id}/accounts`, outsider.headers), 404)).toEqual(MATCH_NOT_FOUND);
      for (const party of [poster, matcher]) {
        expect(refusal(await call('GET', `/exchange-matches/${match.id}/accounts`, party.headers), 403)).toEqual({
          message: 'Bank details are shared once the requester has approved the match', code: 'forbidden',
        });
      }
    });
  });

  it('GET /transaction-history: each party\'s completed exchanges from their own side, newest first, rounded half-up', async () => {
    const a = await user();
    const b = await user();
    const history = async (headers: Headers) => {
      const res = await call('GET', '/transaction-history', headers);
      expect(res.statusCode, res.body).toBe(200);
      return { total: res.headers['x-total-count'], items: TransactionHistory.parse(res.json()) };
    };
    const complete = async (requester: Headers, matcher: Headers, body: RequestBody) => {
      const request = await post(requester, body);
      const match = await accepted(matcher, request.id);
      await acted(requester, match.id, 'confirm');
      later();
      await acted(matcher, match.id, 'complete');
      return { request, match, completedAt: clock.toISOString() };
    };
    // £100.50 at 1275 is 128,137.5 CLP: 128,138 rounded half-up. 1,000 CLP at 1275 is £0.784…: £0.78.
    const gbp = await complete(a.headers, b.headers, GBP_100_50);
    const clp = await complete(b.headers, a.headers, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 1000, exchangeRate: 1275 });
    const item = (t: typeof gbp, from: ['GBP' | 'CLP', number], to: ['GBP' | 'CLP', number], userRole: 'requester' | 'matcher') => ({
      id: t.match.id, exchangeRequestId: t.request.id, exchangeMatchId: t.match.id,
      fromCurrency: from[0], fromAmount: from[1], toCurrency: to[0], toAmount: to[1], exchangeRate: 1275,
      status: 'completed', completedAt: t.completedAt, userRole, otherUser: null,
    });
    expect(await history(a.headers)).toEqual({ total: '2', items: [
      item(clp, ['GBP', 0.78], ['CLP', 1000], 'matcher'),
      item(gbp, ['GBP', 100.5], ['CLP', 128_138], 'requester'),
    ] });
    expect(await history(b.headers)).toEqual({ total: '2', items: [
      item(clp, ['CLP', 1000], ['GBP', 0.78], 'requester'),
      item(gbp, ['CLP', 128_138], ['GBP', 100.5], 'matcher'),
    ] });
    expect(await history((await user()).headers)).toEqual({ total: '0', items: [] });
  });
});
