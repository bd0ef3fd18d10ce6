/**
 * A user's notifications and preference: in their data download, and gone once they delete their account, after
 * which nothing more is stored for them (a partner's rating, a fan-out of a request they could have taken).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NotificationList, NotificationPersonalData, NotificationPreferences } from '@puente/contracts';
import { makeEvent, type Caller } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import { notifyTakersPage } from './domain/fan-out.ts';

const ANA = 1;
const BOB = 2;
const parties = { matchId: 40, requestId: 12, requesterId: ANA, matcherId: BOB };
const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '500.00', exchangeRate: '1275.0000' } as const;
let nextRating = 1;
const ratingOf = (toUserId: number) => makeEvent('ratingSubmitted', nextRating, {
  ratingId: nextRating++, matchId: 40, requestId: 12, fromUserId: toUserId === ANA ? BOB : ANA, toUserId, rating: 5, toUserAverage: '5.0000', toUserCount: 1,
});

describeWithInfra(['postgres'], 'a user\'s notifications: downloaded, and erased with their account', () => {
  const db = useFreshDatabase('notification_personal_data');
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(notificationService(NotificationSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url);
    await svc.deliver(makeEvent('matchCompleted', 40, { ...parties, ...terms }));
    let account = 1;
    for (const userId of [ANA, BOB]) {
      for (const currency of ['GBP', 'CLP'] as const) await svc.deliver(makeEvent('bankAccountAdded', account, { accountId: account++, userId, currency }));
    }
  });
  afterAll(async () => { await svc?.stop(); });

  const as = (userId: number) => svc.as({ kind: 'user', userId, role: 'user' });
  const personalData = async (userId: number, caller: Caller = { kind: 'service', service: 'identity' }) =>
    svc.app.inject({ method: 'GET', url: `/internal/personal-data/notifications?userId=${userId}`, headers: await svc.as(caller) });
  const notificationsOf = async (userId: number) => NotificationList.parse((await svc.app.inject({ method: 'GET', url: '/notifications', headers: await as(userId) })).json());
  const takers = async () => (await notifyTakersPage(svc.ctx.orm.em.fork(), { eventId: randomUUID(), requestId: 99, ownerId: 3, afterUserId: 0, content: 'A request', params: {} }, 10))
    .notified.map((n) => n.userId);

  it('answers identity with the user\'s notifications and preference, and nobody else', async () => {
    const off = await svc.app.inject({ method: 'PUT', url: '/notifications/preferences', headers: await as(ANA), payload: { emailDigest: false } });
    expect(NotificationPreferences.parse(off.json())).toEqual({ emailDigest: false });
    const res = await personalData(ANA);
    expect(res.statusCode).toBe(200);
    const data = NotificationPersonalData.parse(res.json());
    expect(data).toEqual({ notifications: await notificationsOf(ANA), preferences: { emailDigest: false } });
    expect(data.notifications.map((n) => n.type)).toEqual(['exchange_completed']);
    expect((await personalData(ANA, { kind: 'service', service: 'rating' })).statusCode).toBe(403);
  });

  it('erases a deleted user\'s notifications and preference, once, and stores nothing more for them', async () => {
    const deleted = makeEvent('userDeleted', ANA, { userId: ANA });
    await svc.deliver(deleted, deleted);
    expect(NotificationPersonalData.parse((await personalData(ANA)).json())).toEqual({ notifications: [], preferences: { emailDigest: true } });
    expect((await notificationsOf(BOB)).map((n) => n.type)).toEqual(['exchange_completed']);

    // Bob rating her tells her nothing; her rating of Bob (given before) still tells him.
    await svc.deliver(ratingOf(ANA), ratingOf(BOB));
    expect(await notificationsOf(ANA)).toEqual([]);
    expect((await notificationsOf(BOB)).map((n) => n.type)).toEqual(['rating', 'exchange_completed']);
    // A request announced to whoever could take it reaches Bob, not her.
    expect(await takers()).toEqual([BOB]);
  });
});
