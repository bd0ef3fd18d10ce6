import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ErrorBody, Rating, RatingList, type EventEnvelope, type EventPayload } from '@puente/contracts';
import { createHttpApp, createLogger, makeEvent, notFound, readEvent, serve } from '@puente/platform';
import { Routes } from '@puente/contracts';
import { startTestService, testAuth, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { RatingSettings, ratingService } from './app.ts';

type Headers = Record<string, string>;
type Status = 'pending' | 'confirmed' | 'completed' | 'cancelled' | 'expired';
const MATCH_NOT_FOUND = { message: 'Exchange match not found', code: 'not_found' };
const NOT_OTHER_PARTY = { message: 'You can only rate the other party of this exchange', code: 'forbidden' };
const NOT_COMPLETED = { message: 'You can rate the other party once the exchange is completed', code: 'conflict' };
const ALREADY_RATED = { message: 'Already Rated', code: 'conflict' };
const RATING_RANGE = 'Rating must be a whole number from 1 to 5';

/** The envelope as its producer would have stamped it at `ms` (the name projection orders by it). */
const occurred = (event: EventEnvelope, ms: number): EventEnvelope => ({ ...event, occurredAt: new Date(ms).toISOString() });

describeWithInfra(['postgres'], 'ratings', () => {
  const db = useFreshDatabase('rating');
  let svc: TestService;
  /** What the exchange service knows of each match now (its events may not have arrived here yet). */
  const atExchange = new Map<number, { requesterId: number; matcherId: number; status: Status }>();
  const exchange = createHttpApp({ logger: createLogger({ name: 'fake-exchange', level: 'silent' }), auth: testAuth('exchange') });
  serve(exchange, Routes.exchange.internalMatch, async (request) => {
    const match = atExchange.get(request.params.id);
    if (!match) throw notFound('Exchange match not found');
    return { id: request.params.id, exchangeRequestId: request.params.id + 10_000, ...match };
  });
  beforeAll(async () => {
    await exchange.listen({ host: '127.0.0.1', port: 0 });
    const serviceUrls = { exchange: `http://127.0.0.1:${(exchange.server.address() as { port: number }).port}` };
    svc = await startTestService(ratingService(RatingSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url, { serviceUrls });
  });
  afterAll(async () => {
    await svc?.stop();
    await exchange.close();
  });

  let nextUser = 1;
  /** A user identity has registered (the rater projection learns the first name). */
  async function user(firstName?: string) {
    const userId = nextUser++;
    const name = firstName ?? `User${userId}`;
    await svc.deliver(makeEvent('userRegistered', userId, { userId, firstName: name, lastName: 'Tester', role: 'user', referrerId: null }));
    return { userId, firstName: name, headers: await svc.as({ kind: 'user', userId, role: 'user' }) };
  }

  let nextMatch = 100;
  const parties = (matchId: number, requesterId: number, matcherId: number) => ({ matchId, requestId: matchId + 10_000, requesterId, matcherId });
  const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' } as const;
  /** The exchange service's event for a match reaching `status`. */
  function matchEvent(status: Status, matchId: number, requesterId: number, matcherId: number): EventEnvelope {
    const p = parties(matchId, requesterId, matcherId);
    switch (status) {
      case 'pending': return makeEvent('matchCreated', matchId, { ...p, ...terms });
      case 'confirmed': return makeEvent('matchConfirmed', matchId, { ...p, ...terms });
      case 'completed': return makeEvent('matchCompleted', matchId, { ...p, ...terms });
      case 'cancelled': return makeEvent('matchCancelled', matchId, { ...p, cancelledById: requesterId, reason: 'declined' });
      case 'expired': return makeEvent('matchExpired', matchId, p);
    }
  }
  /** A match between two new users, delivered up to `status` (created, confirmed, completed by default). */
  async function trade(status: Status = 'completed', names: [string?, string?] = []) {
    const requester = await user(names[0]);
    const matcher = await user(names[1]);
    const matchId = nextMatch++;
    const path: Status[] = status === 'cancelled' || status === 'expired' ? ['pending', status]
      : (['pending', 'confirmed', 'completed'] as const).slice(0, ['pending', 'confirmed', 'completed'].indexOf(status) + 1);
    for (const s of path) await svc.deliver(matchEvent(s, matchId, requester.userId, matcher.userId));
    atExchange.set(matchId, { requesterId: requester.userId, matcherId: matcher.userId, status });
    return { requester, matcher, matchId };
  }

  const rateAs = (headers: Headers, body: object) => svc.app.inject({ method: 'POST', url: '/ratings', headers, payload: body });
  async function rated(headers: Headers, body: { exchangeMatchId: number; toUserId: number; rating: number; comment?: string | null }) {
    const res = await rateAs(headers, body);
    expect(res.statusCode, res.body).toBe(201);
    return Rating.parse(res.json());
  }
  const refusal = (res: LightMyRequestResponse, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    return ErrorBody.parse(res.json());
  };
  const get = (headers: Headers, url: string) => svc.app.inject({ method: 'GET', url, headers });
  async function list(headers: Headers, url: string) {
    const res = await get(headers, url);
    expect(res.statusCode, res.body).toBe(200);
    return { ratings: RatingList.parse(res.json()), total: res.headers['x-total-count'] };
  }
  /** The ratingSubmitted payloads published so far (once the outbox relay has caught up), once each. */
  async function submitted(): Promise<EventPayload<'ratingSubmitted'>[]> {
    await svc.ctx.relay.flush();
    await svc.bus.drain();
    const seen = new Set<string>();
    return svc.published().filter((e) => !seen.has(e.id) && seen.add(e.id)).flatMap((e) => {
      const payload = readEvent('ratingSubmitted', e);
      return payload === undefined ? [] : [payload];
    });
  }
  const submittedFor = async (toUserId: number) => (await submitted()).filter((e) => e.toUserId === toUserId);

  describe('POST /ratings', () => {
    it('rates the other party of a completed match: 201 with the rater\'s first name, and publishes ratingSubmitted', async () => {
      const { requester, matcher, matchId } = await trade('completed', ['Ana', 'Bea']);
      const before = Date.now();
      const rating = await rated(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 5, comment: '  Fast and friendly  ' });
      expect(rating).toEqual({
        id: rating.id, exchangeMatchId: matchId, fromUserId: requester.userId, toUserId: matcher.userId, rating: 5,
        comment: 'Fast and friendly', createdAt: rating.createdAt, fromUser: { firstName: 'Ana' },
      });
      expect(Date.parse(rating.createdAt)).toBeGreaterThanOrEqual(before - 1_000);
      expect(await submittedFor(matcher.userId)).toEqual([{
        ratingId: rating.id, matchId, requestId: matchId + 10_000, fromUserId: requester.userId, toUserId: matcher.userId, rating: 5,
        toUserAverage: '5.0000', toUserCount: 1,
      }]);
    });

    it('lets both parties rate each other, once each', async () => {
      const { requester, matcher, matchId } = await trade('completed', ['Carla', 'Diego']);
      const byRequester = await rated(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 });
      const byMatcher = await rated(matcher.headers, { exchangeMatchId: matchId, toUserId: requester.userId, rating: 2, comment: 'Slow' });
      expect(byRequester).toMatchObject({ fromUserId: requester.userId, toUserId: matcher.userId, rating: 4, comment: null, fromUser: { firstName: 'Carla' } });
      expect(byMatcher).toMatchObject({ fromUserId: matcher.userId, toUserId: requester.userId, rating: 2, comment: 'Slow', fromUser: { firstName: 'Diego' } });
      const again = await rateAs(matcher.headers, { exchangeMatchId: matchId, toUserId: requester.userId, rating: 5 });
      expect(refusal(again, 409)).toEqual(ALREADY_RATED);
      expect((await list(requester.headers, `/ratings/exchange/${matchId}`)).ratings).toEqual([byRequester, byMatcher]);
    });

    it('refuses an unknown match and a match the caller is not a party of (404)', async () => {
      const { matcher, matchId } = await trade();
      const outsider = await user();
      expect(refusal(await rateAs(outsider.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 }), 404)).toEqual(MATCH_NOT_FOUND);
      expect(refusal(await rateAs(matcher.headers, { exchangeMatchId: 999_999, toUserId: outsider.userId, rating: 4 }), 404)).toEqual(MATCH_NOT_FOUND);
    });

    it('refuses rating oneself or someone outside the match (403)', async () => {
      const { requester, matcher, matchId } = await trade();
      const outsider = await user();
      expect(refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: requester.userId, rating: 5 }), 403)).toEqual(NOT_OTHER_PARTY);
      expect(refusal(await rateAs(matcher.headers, { exchangeMatchId: matchId, toUserId: outsider.userId, rating: 1 }), 403)).toEqual(NOT_OTHER_PARTY);
      expect(await submittedFor(outsider.userId)).toEqual([]);
      expect(await submittedFor(requester.userId)).toEqual([]);
    });

    it('refuses a match not completed yet, and one cancelled or expired (409)', async () => {
      for (const status of ['pending', 'confirmed', 'cancelled', 'expired'] as const) {
        const { requester, matcher, matchId } = await trade(status);
        expect(refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 }), 409), status).toEqual(NOT_COMPLETED);
      }
    });

    it('rates once the completion arrives', async () => {
      const { requester, matcher, matchId } = await trade('confirmed');
      expect(refusal(await rateAs(matcher.headers, { exchangeMatchId: matchId, toUserId: requester.userId, rating: 3 }), 409)).toEqual(NOT_COMPLETED);
      await svc.deliver(matchEvent('completed', matchId, requester.userId, matcher.userId));
      atExchange.set(matchId, { requesterId: requester.userId, matcherId: matcher.userId, status: 'completed' });
      await rated(matcher.headers, { exchangeMatchId: matchId, toUserId: requester.userId, rating: 3 });
    });

    it('rates a match completed at the exchange service before its event arrived here (asked of the exchange service)', async () => {
      const { requester, matcher, matchId } = await trade('confirmed');
      atExchange.set(matchId, { requesterId: requester.userId, matcherId: matcher.userId, status: 'completed' }); // its event is on the way
      const rating = await rated(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 5 });
      expect(rating).toMatchObject({ exchangeMatchId: matchId, fromUserId: requester.userId, toUserId: matcher.userId, rating: 5 });
      await svc.deliver(matchEvent('completed', matchId, requester.userId, matcher.userId)); // arriving late changes nothing
      expect(refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 1 }), 409)).toEqual(ALREADY_RATED);
      // Nor does the exchange service open a match to rating before it is completed there.
      const pending = await trade('confirmed');
      expect(refusal(await rateAs(pending.matcher.headers, { exchangeMatchId: pending.matchId, toUserId: pending.requester.userId, rating: 3 }), 409)).toEqual(NOT_COMPLETED);
    });

    it('refuses a second rating by the same rater in the same match (409 Already Rated)', async () => {
      const { requester, matcher, matchId } = await trade();
      await rated(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 });
      expect(refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 1 }), 409)).toEqual(ALREADY_RATED);
      expect((await submittedFor(matcher.userId)).map((e) => e.toUserCount)).toEqual([1]);
    });

    it('refuses a rating that is not a whole number from 1 to 5 (400)', async () => {
      const { requester, matcher, matchId } = await trade();
      for (const rating of [0, 6, 2.5, '4', null]) {
        const body = refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating }), 400);
        expect(body, String(rating)).toEqual({ message: RATING_RANGE, code: 'validation_failed', errors: [{ field: 'rating', message: RATING_RANGE }] });
      }
      const missing = refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId }), 400);
      expect(missing.message).toBe(RATING_RANGE);
      expect(await submittedFor(matcher.userId)).toEqual([]);
    });

    it('refuses bad ids (400)', async () => {
      const { requester, matcher, matchId } = await trade();
      expect(refusal(await rateAs(requester.headers, { exchangeMatchId: 'x', toUserId: matcher.userId, rating: 4 }), 400).message).toBe('Invalid exchange match ID');
      expect(refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: -1, rating: 4 }), 400).message).toBe('Invalid user ID');
    });

    it('trims the comment, treats a blank one as none, and refuses one over 1000 characters', async () => {
      const a = await trade();
      const tooLong = await rateAs(a.requester.headers, { exchangeMatchId: a.matchId, toUserId: a.matcher.userId, rating: 4, comment: 'x'.repeat(1001) });
      expect(refusal(tooLong, 400)).toEqual({
        message: 'Comment must be at most 1000 characters', code: 'validation_failed',
        errors: [{ field: 'comment', message: 'Comment must be at most 1000 characters' }],
      });
      const blank = await rated(a.requester.headers, { exchangeMatchId: a.matchId, toUserId: a.matcher.userId, rating: 4, comment: '   \n ' });
      expect(blank.comment).toBeNull();
      const b = await trade();
      const longest = await rated(b.requester.headers, { exchangeMatchId: b.matchId, toUserId: b.matcher.userId, rating: 4, comment: ` ${'y'.repeat(1000)}\n` });
      expect(longest.comment).toBe('y'.repeat(1000));
      const lines = await rated(b.matcher.headers, { exchangeMatchId: b.matchId, toUserId: b.requester.userId, rating: 5, comment: 'Line one\nLine two' });
      expect(lines.comment).toBe('Line one\nLine two');
    });

    it('refuses a visitor (401)', async () => {
      const { matcher, matchId } = await trade();
      expect((await rateAs({}, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 })).statusCode).toBe(401);
    });

    it('publishes the rated user\'s exact running average (4 decimals, half-up) and count', async () => {
      const rated_ = await user();
      const ratings = [5, 4, 4, 1, 2, 5];
      for (const stars of ratings) {
        const rater = await user();
        const matchId = nextMatch++;
        for (const s of ['pending', 'confirmed', 'completed'] as const) await svc.deliver(matchEvent(s, matchId, rater.userId, rated_.userId));
        await rated(rater.headers, { exchangeMatchId: matchId, toUserId: rated_.userId, rating: stars });
      }
      expect((await submittedFor(rated_.userId)).map((e) => [e.toUserCount, e.toUserAverage])).toEqual([
        [1, '5.0000'], [2, '4.5000'], [3, '4.3333'], [4, '3.5000'], [5, '3.2000'], [6, '3.5000'],
      ]);
      // 5/3 = 1.66666… rounds up in the last place: 2, 2, 1 → 1.6667.
      const other = await user();
      for (const stars of [2, 2, 1]) {
        const rater = await user();
        const matchId = nextMatch++;
        for (const s of ['pending', 'confirmed', 'completed'] as const) await svc.deliver(matchEvent(s, matchId, other.userId, rater.userId));
        await rated(rater.headers, { exchangeMatchId: matchId, toUserId: other.userId, rating: stars });
      }
      expect((await submittedFor(other.userId)).map((e) => e.toUserAverage)).toEqual(['2.0000', '2.0000', '1.6667']);
    });

    it('counts concurrent ratings of one user by different raters without a lost update', async () => {
      const target = await user();
      const raters = await Promise.all([user(), user(), user(), user()]);
      const matches = raters.map(() => nextMatch++);
      for (const [i, rater] of raters.entries()) {
        for (const s of ['pending', 'confirmed', 'completed'] as const) await svc.deliver(matchEvent(s, matches[i]!, target.userId, rater.userId));
      }
      const stars = [5, 4, 3, 2];
      const results = await Promise.all(raters.map((r, i) => rateAs(r.headers, { exchangeMatchId: matches[i], toUserId: target.userId, rating: stars[i] })));
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
      const events = (await submittedFor(target.userId)).sort((a, b) => a.toUserCount - b.toUserCount);
      expect(events.map((e) => e.toUserCount)).toEqual([1, 2, 3, 4]);
      expect(events.at(-1)!.toUserAverage).toBe('3.5000');
      // Each event's average is the one over the ratings committed up to it, in the order they were counted.
      let sum = 0;
      for (const e of events) {
        sum += e.rating;
        expect(e.toUserAverage).toBe((sum / e.toUserCount).toFixed(4));
      }
    });

    it('the same rater twice at once: one 201, one 409 Already Rated', async () => {
      const { requester, matcher, matchId } = await trade();
      const results = await Promise.all([5, 3].map((rating) => rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(ErrorBody.parse(results.find((r) => r.statusCode === 409)!.json())).toEqual(ALREADY_RATED);
      expect((await submittedFor(matcher.userId)).map((e) => e.toUserCount)).toEqual([1]);
      expect((await list(matcher.headers, `/ratings/exchange/${matchId}`)).ratings).toHaveLength(1);
    });
  });

  describe('the match projection', () => {
    it('redelivered and out-of-order match events leave a completed match completed', async () => {
      const requester = await user();
      const matcher = await user();
      const matchId = nextMatch++;
      const ev = (s: Status) => matchEvent(s, matchId, requester.userId, matcher.userId);
      await svc.deliver(ev('completed'), ev('pending'), ev('confirmed'), ev('pending')); // completed first, then the rest late
      await svc.deliver(ev('confirmed'), ev('completed'), ev('pending')); // and all of it redelivered
      await rated(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 });
    });

    it('an ended match stays ended: a late confirmation does not reopen a cancelled or expired match to rating', async () => {
      for (const ended of ['cancelled', 'expired'] as const) {
        const requester = await user();
        const matcher = await user();
        const matchId = nextMatch++;
        const ev = (s: Status) => matchEvent(s, matchId, requester.userId, matcher.userId);
        await svc.deliver(ev(ended), ev('pending'), ev('confirmed'), ev(ended));
        expect(refusal(await rateAs(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 }), 409)).toEqual(NOT_COMPLETED);
      }
    });

    it('a match created and completed only: the parties it names are the ones who may rate', async () => {
      const requester = await user();
      const matcher = await user();
      const matchId = nextMatch++;
      await svc.deliver(matchEvent('completed', matchId, requester.userId, matcher.userId));
      await rated(matcher.headers, { exchangeMatchId: matchId, toUserId: requester.userId, rating: 5 });
    });
  });

  describe('GET /ratings/exchange/{exchangeMatchId}', () => {
    it('answers the match\'s ratings to its two parties only; anyone else, or an unknown match, 404', async () => {
      const { requester, matcher, matchId } = await trade();
      const outsider = await user();
      expect((await list(requester.headers, `/ratings/exchange/${matchId}`)).ratings).toEqual([]);
      const one = await rated(matcher.headers, { exchangeMatchId: matchId, toUserId: requester.userId, rating: 3 });
      expect((await list(requester.headers, `/ratings/exchange/${matchId}`)).ratings).toEqual([one]);
      expect((await list(matcher.headers, `/ratings/exchange/${matchId}`)).ratings).toEqual([one]);
      expect(refusal(await get(outsider.headers, `/ratings/exchange/${matchId}`), 404)).toEqual(MATCH_NOT_FOUND);
      expect(refusal(await get(outsider.headers, '/ratings/exchange/999999'), 404)).toEqual(MATCH_NOT_FOUND);
      expect(refusal(await get(outsider.headers, '/ratings/exchange/abc'), 400).message).toBe('Invalid exchange match ID');
      expect((await get({}, `/ratings/exchange/${matchId}`)).statusCode).toBe(401);
    });

    it('a pending match\'s parties see an empty list', async () => {
      const { requester, matchId } = await trade('pending');
      expect((await list(requester.headers, `/ratings/exchange/${matchId}`)).ratings).toEqual([]);
    });
  });

  describe('GET /ratings/user/{userId}', () => {
    it('answers any signed-in user the ratings a user received, newest first, paginated with X-Total-Count', async () => {
      const target = await user('Tina');
      const given: Rating[] = [];
      for (const [i, stars] of [5, 3, 4].entries()) {
        const rater = await user(`Rater${i}`);
        const matchId = nextMatch++;
        for (const s of ['pending', 'confirmed', 'completed'] as const) await svc.deliver(matchEvent(s, matchId, target.userId, rater.userId));
        given.push(await rated(rater.headers, { exchangeMatchId: matchId, toUserId: target.userId, rating: stars, comment: `Comment ${i}` }));
        // Tina rates back: a rating she gave is not one she received.
        await rated(target.headers, { exchangeMatchId: matchId, toUserId: rater.userId, rating: 5 });
      }
      const stranger = await user();
      const newestFirst = [...given].reverse();
      expect(await list(stranger.headers, `/ratings/user/${target.userId}`)).toEqual({ ratings: newestFirst, total: '3' });
      expect(newestFirst.map((r) => r.fromUser.firstName)).toEqual(['Rater2', 'Rater1', 'Rater0']);
      expect(await list(target.headers, `/ratings/user/${target.userId}?limit=2`)).toEqual({ ratings: newestFirst.slice(0, 2), total: '3' });
      expect(await list(target.headers, `/ratings/user/${target.userId}?limit=2&offset=2`)).toEqual({ ratings: newestFirst.slice(2), total: '3' });
      expect(await list(target.headers, `/ratings/user/${target.userId}?offset=5`)).toEqual({ ratings: [], total: '3' });
      expect(await list(stranger.headers, `/ratings/user/${stranger.userId}`)).toEqual({ ratings: [], total: '0' });
      expect(refusal(await get(stranger.headers, `/ratings/user/${target.userId}?limit=0`), 400).code).toBe('validation_failed');
      expect(refusal(await get(stranger.headers, '/ratings/user/x'), 400).message).toBe('Invalid user ID');
      expect((await get({}, `/ratings/user/${target.userId}`)).statusCode).toBe(401);
    });

    it('shows the rater\'s current first name from the projection; an older profile event does not overwrite a newer one', async () => {
      const { requester, matcher, matchId } = await trade('completed', ['Old']);
      await rated(requester.headers, { exchangeMatchId: matchId, toUserId: matcher.userId, rating: 4 });
      const names = async () => (await list(matcher.headers, `/ratings/user/${matcher.userId}`)).ratings.map((r) => r.fromUser.firstName);
      expect(await names()).toEqual(['Old']);
      const t = Date.now() + 60_000;
      const profile = (firstName: string) => makeEvent('userProfileUpdated', requester.userId, { userId: requester.userId, firstName, lastName: 'X', profileImageUrl: null });
      await svc.deliver(occurred(profile('Olivia'), t + 1_000));
      expect(await names()).toEqual(['Olivia']);
      await svc.deliver(occurred(profile('Stale'), t));
      expect(await names()).toEqual(['Olivia']);
      const registration = makeEvent('userRegistered', requester.userId, { userId: requester.userId, firstName: 'Replayed', lastName: 'X', role: 'user', referrerId: null });
      await svc.deliver(registration);
      expect(await names()).toEqual(['Olivia']);
    });

    it('a rater the service has not heard of shows an empty first name', async () => {
      const target = await user();
      const unknownRaterId = 50_000;
      const matchId = nextMatch++;
      for (const s of ['pending', 'confirmed', 'completed'] as const) await svc.deliver(matchEvent(s, matchId, unknownRaterId, target.userId));
      const rating = await rated(await svc.as({ kind: 'user', userId: unknownRaterId, role: 'user' }), { exchangeMatchId: matchId, toUserId: target.userId, rating: 4 });
      expect(rating.fromUser).toEqual({ firstName: '' });
    });
  });
});
