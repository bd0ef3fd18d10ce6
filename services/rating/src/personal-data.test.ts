/**
 * A user's ratings: given and received in their data download; once they delete their account, the ratings stay
 * (their partners' trust is built on them) but the deleted user's name and the comments they wrote are gone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DeletedUser, Rating, RatingList, RatingPersonalData } from '@puente/contracts';
import { makeEvent, type Caller } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { RatingSettings, ratingService } from './app.ts';

const ANA = 1;
const BO = 2;
const MATCH = 70;

describeWithInfra(['postgres'], 'a user\'s ratings: downloaded, and kept without the person once they delete their account', () => {
  const db = useFreshDatabase('rating_personal_data');
  let svc: TestService;
  const rated: Record<number, Rating> = {};
  beforeAll(async () => {
    svc = await startTestService(ratingService(RatingSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url);
    for (const [userId, firstName] of [[ANA, 'Ana'], [BO, 'Bo']] as const) {
      await svc.deliver(makeEvent('userRegistered', userId, { userId, firstName, lastName: 'Tester', role: 'user', referrerId: null }));
    }
    const parties = { matchId: MATCH, requestId: 700, requesterId: ANA, matcherId: BO };
    await svc.deliver(makeEvent('matchCompleted', MATCH, { ...parties, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100', exchangeRate: '1275.0000' }));
    for (const [from, to, comment] of [[ANA, BO, 'Bo paid within the hour'], [BO, ANA, 'Ana was lovely']] as const) {
      const res = await svc.app.inject({
        method: 'POST', url: '/ratings', headers: await svc.as({ kind: 'user', userId: from, role: 'user' }), payload: { exchangeMatchId: MATCH, toUserId: to, rating: 5, comment },
      });
      expect(res.statusCode, res.body).toBe(201);
      rated[from] = Rating.parse(res.json());
    }
  });
  afterAll(async () => { await svc?.stop(); });

  const personalData = async (userId: number, caller: Caller = { kind: 'service', service: 'identity' }) =>
    svc.app.inject({ method: 'GET', url: `/internal/personal-data/ratings?userId=${userId}`, headers: await svc.as(caller) });
  const receivedBy = async (userId: number) => RatingList.parse((await svc.app.inject({
    method: 'GET', url: `/ratings/user/${userId}`, headers: await svc.as({ kind: 'user', userId: BO, role: 'user' }),
  })).json());

  it('answers identity with the ratings the user gave and received, and nobody else', async () => {
    const res = await personalData(ANA);
    expect(res.statusCode).toBe(200);
    expect(RatingPersonalData.parse(res.json())).toEqual({ given: [rated[ANA]], received: [rated[BO]] });
    expect((await personalData(ANA, { kind: 'service', service: 'exchange' })).statusCode).toBe(403);
  });

  it('keeps a deleted user\'s ratings, without their name or the comments they wrote, once however often delivered', async () => {
    const deleted = makeEvent('userDeleted', ANA, { userId: ANA });
    await svc.deliver(deleted, deleted);
    // Bo's trust keeps Ana's five stars; her name and words are gone. Bo's words about her stay: they are his.
    expect(await receivedBy(BO)).toEqual([{ ...rated[ANA], comment: null, fromUser: { firstName: DeletedUser.firstName } }]);
    expect(await receivedBy(ANA)).toEqual([rated[BO]]);
    // A name older than the deletion, arriving late, does not bring hers back.
    const late = { ...makeEvent('userProfileUpdated', ANA, { userId: ANA, firstName: 'Ana', lastName: 'Tester', profileImageUrl: null }), occurredAt: new Date(Date.now() - 60_000).toISOString() };
    await svc.deliver(late);
    expect((await receivedBy(BO))[0]?.fromUser).toEqual({ firstName: DeletedUser.firstName });
  });
});
