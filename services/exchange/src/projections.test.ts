import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, ExchangeMatchList, ExchangeRate, ExchangeRequest, ExchangeRequestList, type EventEnvelope } from '@puente/contracts';
import { ProjectionBackfill, makeEvent } from '@puente/platform';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { backfill } from './jobs/backfill-projections.ts';
import { accountRemoved, startExchangeOnClock, trader } from './testing/traders.ts';

type Headers = Record<string, string>;
const NEEDS_BOTH = { message: 'You need both GBP and CLP accounts to create an exchange request', code: 'forbidden' };
const NEEDS_BOTH_TO_ACCEPT = { message: 'You need both GBP and CLP accounts to accept an exchange request', code: 'bank_accounts_required' };
const GBP_100 = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } as const;

/** The envelope as its producer would have stamped it at `ms` (the projection orders by it). */
const occurred = (event: EventEnvelope, ms: number): EventEnvelope => ({ ...event, occurredAt: new Date(ms).toISOString() });

describeWithInfra(['postgres'], 'exchange projections', () => {
  const db = useFreshDatabase('exchange');
  let svc: TestService;
  const clock = new Date('2026-07-01T10:00:00.000Z');
  beforeAll(async () => { svc = await startExchangeOnClock(db.url, () => clock); });
  afterAll(async () => { await svc?.stop(); });

  let nextUser = 1;
  const user = (opts?: Parameters<typeof trader>[2]) => trader(svc, nextUser++, opts);
  const postAs = (headers: Headers, body: object = GBP_100) => svc.app.inject({ method: 'POST', url: '/exchange-requests', headers, payload: body });
  async function post(headers: Headers) {
    const res = await postAs(headers);
    expect(res.statusCode, res.body).toBe(201);
    return ExchangeRequest.parse(res.json());
  }
  /** The poster's card on a request, as another user reads it, and in the market list. */
  async function card(viewer: Headers, requestId: number) {
    const one = await svc.app.inject({ method: 'GET', url: `/exchange-requests/${requestId}`, headers: viewer });
    expect(one.statusCode, one.body).toBe(200);
    const list = await svc.app.inject({ method: 'GET', url: '/exchange-requests?limit=500', headers: viewer });
    expect(list.statusCode, list.body).toBe(200);
    const fromList = ExchangeRequestList.parse(list.json()).find((r) => r.id === requestId);
    const fromOne = ExchangeRequest.parse(one.json()).user;
    expect(fromList?.user).toEqual(fromOne);
    return fromOne;
  }
  const blankCard = (t: Awaited<ReturnType<typeof trader>>) => ({
    firstName: `User${t.userId}`, lastName: 'Tester', profileImageUrl: null, trustRating: null, transactionCount: 0,
    completionRate: null, averageCompletionMinutes: null, memberSince: t.registeredAt,
  });
  const profile = (userId: number, firstName: string, lastName: string, profileImageUrl: string | null) =>
    makeEvent('userProfileUpdated', userId, { userId, firstName, lastName, profileImageUrl });
  let nextRating = 1;
  const rating = (toUserId: number, toUserAverage: string, toUserCount: number) => {
    const ratingId = nextRating++;
    return makeEvent('ratingSubmitted', ratingId, { ratingId, matchId: ratingId, fromUserId: 9_999, toUserId, rating: 4, toUserAverage, toUserCount });
  };

  it('userProfileUpdated changes the names and picture on the user\'s cards and matches; an older update does not overwrite a newer one', async () => {
    const poster = await user();
    const viewer = await user();
    const request = await post(poster.headers);
    expect(await card(viewer.headers, request.id)).toEqual(blankCard(poster));

    const t = Date.now() + 60_000; // after the registration trader() delivered
    await svc.deliver(occurred(profile(poster.userId, 'Ana', 'Rojas', 'https://cdn.puente.test/ana.png'), t + 1_000));
    const ana = { ...blankCard(poster), firstName: 'Ana', lastName: 'Rojas', profileImageUrl: 'https://cdn.puente.test/ana.png' };
    expect(await card(viewer.headers, request.id)).toEqual(ana);
    // An update that happened before it, delivered late (another partition, a replay), is ignored.
    await svc.deliver(occurred(profile(poster.userId, 'Old', 'Name', null), t));
    expect(await card(viewer.headers, request.id)).toEqual(ana);
    // A newer one removes the picture.
    await svc.deliver(occurred(profile(poster.userId, 'Ana', 'Rojas Soto', null), t + 2_000));
    expect(await card(viewer.headers, request.id)).toEqual({ ...ana, lastName: 'Rojas Soto', profileImageUrl: null });

    // The matcher's name on a match comes from the same projection.
    const matchRes = await svc.app.inject({ method: 'POST', url: '/exchange-matches', headers: viewer.headers, payload: { exchangeRequestId: request.id } });
    expect(matchRes.statusCode, matchRes.body).toBe(201);
    await svc.deliver(occurred(profile(viewer.userId, 'Bea', 'Lagos', null), t + 3_000));
    const matches = await svc.app.inject({ method: 'GET', url: '/exchange-matches', headers: poster.headers });
    expect(ExchangeMatchList.parse(matches.json()).map((m) => m.matcherName)).toEqual(['Bea Lagos']);
  });

  it('a profile update that arrives before the registration is not overwritten by it', async () => {
    const userId = nextUser++;
    await svc.deliver(occurred(profile(userId, 'Carla', 'Mena', null), Date.now() + 60_000));
    const carla = await trader(svc, userId); // registration (occurred now, before the update) and accounts
    const request = await post(carla.headers);
    expect(await card((await user()).headers, request.id)).toEqual({ ...blankCard(carla), firstName: 'Carla', lastName: 'Mena' });
  });

  it('ratingSubmitted sets the trust rating to one decimal, rounded half-up exactly; an older count is ignored', async () => {
    const poster = await user();
    const viewer = await user();
    const request = await post(poster.headers);
    const trust = async () => (await card(viewer.headers, request.id)).trustRating;
    expect(await trust()).toBeNull();
    await svc.deliver(rating(poster.userId, '4.25', 4));
    expect(await trust()).toBe(4.3);
    await svc.deliver(rating(poster.userId, '4.35', 5)); // 4.35 as a binary float is 4.3499…: exact decimals give 4.4
    expect(await trust()).toBe(4.4);
    await svc.deliver(rating(poster.userId, '1.00', 3)); // an older running average, delivered late
    expect(await trust()).toBe(4.4);
    await svc.deliver(rating(poster.userId, '2.00', 5)); // the same count again
    expect(await trust()).toBe(4.4);
    await svc.deliver(rating(poster.userId, '4.05', 6));
    expect(await trust()).toBe(4.1);
    await svc.deliver(rating(poster.userId, '4.9444', 7));
    expect(await trust()).toBe(4.9);
  });

  it('bankAccountRemoved takes away the right to post and to accept; another account in that currency keeps it', async () => {
    const someone = await user();
    const request = await post(someone.headers);
    const leaving = await user();
    await accountRemoved(svc, leaving.accounts.GBP!);
    const refused = await postAs(leaving.headers);
    expect(refused.statusCode).toBe(403);
    expect(ErrorBody.parse(refused.json())).toEqual(NEEDS_BOTH);
    const accept = await svc.app.inject({ method: 'POST', url: '/exchange-matches', headers: leaving.headers, payload: { exchangeRequestId: request.id } });
    expect(accept.statusCode).toBe(403);
    expect(ErrorBody.parse(accept.json())).toEqual(NEEDS_BOTH_TO_ACCEPT);

    const twoClp = await user({ accounts: ['GBP', 'CLP', 'CLP'] });
    await accountRemoved(svc, twoClp.accounts.CLP!);
    await post(twoClp.headers);
  });

  it('a redelivered event (the same envelope again) is applied once', async () => {
    const u = await user({ accounts: ['GBP'] });
    const accountId = 500_000 + u.userId;
    const added = makeEvent('bankAccountAdded', accountId, { accountId, userId: u.userId, currency: 'CLP' });
    await svc.deliver(added);
    await post(u.headers);
    await svc.deliver(makeEvent('bankAccountRemoved', accountId, { accountId, userId: u.userId, currency: 'CLP' }));
    expect((await postAs(u.headers)).statusCode).toBe(403);
    // The same envelope once more (at-least-once delivery): skipped, so the removed account stays removed.
    await svc.deliver(added);
    const refused = await postAs(u.headers);
    expect(refused.statusCode).toBe(403);
    expect(ErrorBody.parse(refused.json())).toEqual(NEEDS_BOTH);
    const [row] = await svc.ctx.orm.em.fork().execute<{ n: number }[]>(
      'select count(*)::int as n from exchange.inbox_entry where event_id = ?', [added.id]);
    expect(row).toEqual({ n: 1 });
    // A new event with the same content is a new fact, and is applied.
    await svc.deliver(makeEvent('bankAccountAdded', accountId, { accountId, userId: u.userId, currency: 'CLP' }));
    await post(u.headers);
  });

  describe('with PROJECTION_BACKFILL on', () => {
    const fresh = useFreshDatabase('exchange');

    it('starts and serves without identity or accounts to take the snapshots from, and lists both projections until recorded', async () => {
      const backfilling = await startExchangeOnClock(fresh.url, () => clock, { PROJECTION_BACKFILL: 'on' });
      try {
        expect((await backfilling.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
        const rate = await backfilling.app.inject({ method: 'GET', url: '/exchange-rate' });
        expect(rate.statusCode).toBe(200);
        expect(ExchangeRate.parse(rate.json()).gbpToClp).toBe(1275);
        // Events keep feeding the projections meanwhile.
        const poster = await trader(backfilling, 1);
        const posted = await backfilling.app.inject({ method: 'POST', url: '/exchange-requests', headers: poster.headers, payload: GBP_100 });
        expect(posted.statusCode, posted.body).toBe(201);

        const em = () => backfilling.ctx.orm.em.fork();
        expect(await backfill.pending(em())).toEqual(['users', 'account-currencies']);
        await em().insert(ProjectionBackfill, { name: 'users', rows: 0, completedAt: new Date() });
        expect(await backfill.pending(em())).toEqual(['account-currencies']);
        await em().insert(ProjectionBackfill, { name: 'account-currencies', rows: 0, completedAt: new Date() });
        expect(await backfill.pending(em())).toEqual([]);
      } finally {
        await backfilling.stop();
      }
    });
  });
});
