/**
 * "A rating counts towards scores at once, except while a 'No' dispute is open on its match": the standings the
 * service announces (ratingSubmitted, ratingStandingChanged) while the asked party's dispute of a completed match is
 * open, and after it is resolved.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Rating, type EventEnvelope } from '@puente/contracts';
import { makeEvent, readEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { RatingSettings, ratingService } from './app.ts';

describeWithInfra(['postgres'], 'ratings held while a completed match is disputed', () => {
  const db = useFreshDatabase('rating');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(ratingService(RatingSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url); });
  afterAll(async () => { await svc?.stop(); });

  let nextUser = 1;
  let nextMatch = 100;
  let nextDispute = 1;
  const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' } as const;

  async function user() {
    const userId = nextUser++;
    return { userId, headers: await svc.as({ kind: 'user', userId, role: 'user' }) };
  }
  type Party = Awaited<ReturnType<typeof user>>;
  /** A completed match between the two, as the exchange announces it. */
  async function completed(requester: Party, matcher: Party) {
    const matchId = nextMatch++;
    const parties = { matchId, requestId: matchId + 10_000, requesterId: requester.userId, matcherId: matcher.userId };
    await svc.deliver(makeEvent('matchCompleted', matchId, { ...parties, ...terms, completedById: matcher.userId }));
    return parties;
  }
  type Parties = Awaited<ReturnType<typeof completed>>;
  const opened = (p: Parties, openedById: number, afterCompletion: boolean | undefined, disputeId = nextDispute++) =>
    makeEvent('disputeOpened', p.matchId, { ...p, disputeId, openedById, reason: 'no_payment', ...(afterCompletion === undefined ? {} : { afterCompletion }) });
  const resolved = (p: Parties, disputeId: number) =>
    makeEvent('disputeResolved', p.matchId, { ...p, disputeId, outcome: 'completed', sanction: null });
  const disputeIdOf = (e: EventEnvelope) => readEvent('disputeOpened', e)!.disputeId;

  async function rate(from: Party, matchId: number, to: Party, rating: number) {
    const res = await svc.app.inject({ method: 'POST', url: '/ratings', headers: from.headers, payload: { exchangeMatchId: matchId, toUserId: to.userId, rating } });
    expect(res.statusCode, res.body).toBe(201);
    return Rating.parse(res.json());
  }
  /** What the service announced of the user's standing, in order: [event, count, average]. */
  async function standings(userId: number) {
    await svc.ctx.relay.flush();
    await svc.bus.drain();
    const seen = new Set<string>();
    return svc.published().filter((e) => !seen.has(e.id) && seen.add(e.id)).flatMap((e): [string, number, string | null][] => {
      const submitted = readEvent('ratingSubmitted', e);
      if (submitted?.toUserId === userId) return [['submitted', submitted.toUserCount, submitted.toUserAverage]];
      const changed = readEvent('ratingStandingChanged', e);
      if (changed?.userId === userId) return [['changed', changed.count, changed.average]];
      return [];
    });
  }

  it('a rating given while the No dispute is open is kept but does not move the standing; it counts once resolved', async () => {
    const [ana, bob, carla] = [await user(), await user(), await user()];
    const earlier = await completed(carla, bob);
    await rate(carla, earlier.matchId, bob, 5);
    const disputed = await completed(ana, bob);
    const dispute = opened(disputed, ana.userId, true);
    await svc.deliver(dispute);

    const held = await rate(ana, disputed.matchId, bob, 1);
    expect(held).toMatchObject({ exchangeMatchId: disputed.matchId, toUserId: bob.userId, rating: 1 });
    const received = await svc.app.inject({ method: 'GET', url: `/ratings/user/${bob.userId}`, headers: ana.headers });
    expect(received.json().map((r: { rating: number }) => r.rating)).toEqual([1, 5]); // kept and shown
    expect(await standings(bob.userId)).toEqual([['submitted', 1, '5.0000'], ['submitted', 1, '5.0000']]);

    await svc.deliver(resolved(disputed, disputeIdOf(dispute)));
    expect((await standings(bob.userId)).at(-1)).toEqual(['changed', 2, '3.0000']);
  });

  it('the completer\'s earlier rating leaves the standing when the No dispute opens, and returns when it is resolved', async () => {
    const [ana, bob] = [await user(), await user()];
    const match = await completed(ana, bob);
    await rate(bob, match.matchId, ana, 4); // bob completed and rated; ana had not said she received
    const dispute = opened(match, ana.userId, true);
    await svc.deliver(dispute);
    expect(await standings(ana.userId)).toEqual([['submitted', 1, '4.0000'], ['changed', 0, null]]);
    expect(await standings(bob.userId)).toEqual([]); // nobody rated bob: his standing did not change

    await svc.deliver(resolved(match, disputeIdOf(dispute)));
    expect(await standings(ana.userId)).toEqual([['submitted', 1, '4.0000'], ['changed', 0, null], ['changed', 1, '4.0000']]);
  });

  it('a first rating given while held announces count 0, the next rating elsewhere counts alone', async () => {
    const [ana, bob, carla] = [await user(), await user(), await user()];
    const match = await completed(ana, bob);
    await svc.deliver(opened(match, ana.userId, true));
    await rate(ana, match.matchId, bob, 2);
    const other = await completed(carla, bob);
    await rate(carla, other.matchId, bob, 5);
    expect(await standings(bob.userId)).toEqual([['submitted', 0, '0.0000'], ['submitted', 1, '5.0000']]);
  });

  it('a dispute opened before completion holds nothing, nor does an old event without afterCompletion', async () => {
    const [ana, bob] = [await user(), await user()];
    const match = await completed(ana, bob);
    await rate(ana, match.matchId, bob, 3);
    await svc.deliver(opened(match, ana.userId, false), opened(match, bob.userId, undefined));
    expect(await standings(bob.userId)).toEqual([['submitted', 1, '3.0000']]);
  });

  it('is idempotent: a redelivered opening or resolution, or the resolution of another dispute, announces nothing more', async () => {
    const [ana, bob] = [await user(), await user()];
    const match = await completed(ana, bob);
    await rate(ana, match.matchId, bob, 5);
    const dispute = opened(match, ana.userId, true);
    await svc.deliver(dispute, dispute, { ...dispute, id: crypto.randomUUID() }); // the inbox, then the hold itself
    await svc.deliver(resolved(match, disputeIdOf(dispute) + 1_000));
    expect(await standings(bob.userId)).toEqual([['submitted', 1, '5.0000'], ['changed', 0, null]]);
    const resolution = resolved(match, disputeIdOf(dispute));
    await svc.deliver(resolution, resolution, { ...resolution, id: crypto.randomUUID() });
    expect(await standings(bob.userId)).toEqual([['submitted', 1, '5.0000'], ['changed', 0, null], ['changed', 1, '5.0000']]);
  });

  it('holds a match it only knows by the dispute (its completion not arrived yet): its parties may rate, held', async () => {
    const [ana, bob] = [await user(), await user()];
    const matchId = nextMatch++;
    const match = { matchId, requestId: matchId + 10_000, requesterId: ana.userId, matcherId: bob.userId };
    await svc.deliver(opened(match, ana.userId, true));
    await rate(bob, matchId, ana, 4);
    expect(await standings(ana.userId)).toEqual([['submitted', 0, '0.0000']]);
  });
});
