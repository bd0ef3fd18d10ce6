/**
 * The parties of an exchange are told of each step (exchange and rating events), each notification once however
 * often the bus redelivers, announced to their open tabs (notificationCreated, matchAnnounced); and the polled list
 * and count answer 304 from the caller's version without touching the database until that caller's notifications
 * change. On real Postgres.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationCount, NotificationList, type EventEnvelope, type EventName, type EventPayload } from '@puente/contracts';
import { makeEvent, readEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import { Notification } from './domain/notification.ts';

const ANA = 1; // the requester
const BOB = 2; // the matcher
const CARL = 3; // nobody in this trade

const parties = { matchId: 40, requestId: 12, requesterId: ANA, matcherId: BOB };
const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '500.00', exchangeRate: '1275.0000' } as const;
/**
 * The params of a notification naming the trade's money (the rate aside: only a new request's names it): the terms,
 * and the reader's side (£500.00 × 1275 = $637,500 CLP).
 */
const termParams = { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP' };
const requesterParams = { ...termParams, payAmount: '500.00', payCurrency: 'GBP', receiveAmount: '637500', receiveCurrency: 'CLP' };
/** The requester's exchange_match also names the matcher (by id: the app shows their record). */
const acceptedParams = { ...requesterParams, partnerId: BOB };
const matcherParams = { ...termParams, payAmount: '637500', payCurrency: 'CLP', receiveAmount: '500.00', receiveCurrency: 'GBP' };

describeWithInfra(['postgres'], 'notifications of an exchange\'s steps', () => {
  const db = useFreshDatabase('notification');
  let svc: TestService;

  beforeAll(async () => { svc = await startTestService(notificationService(NotificationSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url); });
  afterAll(async () => { await svc?.stop(); });
  beforeEach(async () => { await svc.ctx.orm.em.fork().nativeDelete(Notification, {}); });

  const get = async (url: string, userId: number, etag?: string) => svc.app.inject({
    method: 'GET', url, headers: { ...await svc.as({ kind: 'user', userId, role: 'user' }), ...(etag ? { 'if-none-match': etag } : {}) },
  });
  const put = async (url: string, userId: number) => svc.app.inject({ method: 'PUT', url, headers: await svc.as({ kind: 'user', userId, role: 'user' }) });

  async function notificationsOf(userId: number) {
    const res = await get('/notifications', userId);
    expect(res.statusCode, res.body).toBe(200);
    return NotificationList.parse(res.json()).map(({ type, content, params, referenceId, read }) => ({ type, content, params, referenceId, read }));
  }

  /** Delivers the event twice (a redelivery), as the bus may. */
  async function deliverTwice<N extends EventName>(name: N, payload: EventPayload<N>): Promise<EventEnvelope> {
    const event = makeEvent(name, 1, payload);
    await svc.deliver(event);
    await svc.deliver(event);
    return event;
  }

  const seen = new Set<string>();
  /** What the gateway would push to sockets: the live events published since the last call, once each. */
  async function announced() {
    await svc.ctx.relay.flush();
    const events = svc.published().filter((e) => !seen.has(e.id) && seen.add(e.id));
    return events.flatMap((e): { to: number; type: string; referenceId: number | null; params?: unknown }[] => {
      const created = readEvent('notificationCreated', e);
      if (created) return [{ to: created.userId, type: created.type, referenceId: created.referenceId, params: created.params }];
      const match = readEvent('matchAnnounced', e);
      return match ? [{ to: match.userId, type: 'match_success', referenceId: match.requestId }] : [];
    });
  }

  describe('each step tells the right party once, with the request as reference', () => {
    beforeEach(async () => { await announced(); });

    it('a match created tells the requester what they pay and receive, and who accepted it (by id; by name once known: receipt-notifications.test.ts)', async () => {
      await deliverTwice('matchCreated', { ...parties, ...terms });
      expect(await notificationsOf(ANA)).toEqual([{
        type: 'exchange_match', referenceId: 12, read: false, params: acceptedParams,
        content: 'Someone accepted your exchange request #12. You pay £500.00 · You receive $637,500 CLP. Approve the match to exchange bank details.',
      }]);
      expect(await notificationsOf(BOB)).toEqual([]);
      expect(await announced()).toEqual([{ to: ANA, type: 'exchange_match', referenceId: 12, params: acceptedParams }]);
    });

    it('a match confirmed tells the matcher, and announces match_success to both parties', async () => {
      await deliverTwice('matchConfirmed', { ...parties, ...terms });
      expect(await notificationsOf(BOB)).toEqual([{
        type: 'exchange_confirmed', referenceId: 12, read: false, params: matcherParams,
        content: 'Your match on exchange request #12 was approved. You pay $637,500 CLP · You receive £500.00. Bank details are now available to both of you.',
      }]);
      expect(await notificationsOf(ANA)).toEqual([]);
      const byUserAndType = (a: { to: number; type: string }, b: { to: number; type: string }) => a.to - b.to || a.type.localeCompare(b.type);
      expect((await announced()).sort(byUserAndType)).toEqual([
        { to: ANA, type: 'match_success', referenceId: 12 },
        { to: BOB, type: 'exchange_confirmed', referenceId: 12, params: matcherParams },
        { to: BOB, type: 'match_success', referenceId: 12 },
      ]);
    });

    it('a match completed tells the other party (both when the event does not say who completed it)', async () => {
      await deliverTwice('matchCompleted', { ...parties, ...terms, completedById: BOB });
      const completed = { type: 'exchange_completed', referenceId: 12, read: false, params: requesterParams,
        content: 'The exchange on exchange request #12 was marked completed. You pay £500.00 · You receive $637,500 CLP. Rate your exchange partner.' };
      expect(await notificationsOf(ANA)).toEqual([completed]);
      expect(await notificationsOf(BOB)).toEqual([]);
      await deliverTwice('matchCompleted', { ...parties, matchId: 41, requestId: 13, ...terms });
      expect((await notificationsOf(BOB)).map((n) => n.referenceId)).toEqual([13]);
      expect((await notificationsOf(ANA)).map((n) => n.referenceId)).toEqual([13, 12]);
    });

    it('a rating tells the rated user, without who gave it', async () => {
      await deliverTwice('ratingSubmitted', { ratingId: 5, matchId: 40, requestId: 12, fromUserId: ANA, toUserId: BOB, rating: 4, toUserAverage: '4.0000', toUserCount: 1 });
      expect(await notificationsOf(BOB)).toEqual([{ type: 'rating', referenceId: 12, read: false, params: { stars: 4 }, content: 'You received a 4-star rating for exchange request #12.' }]);
      expect(await notificationsOf(ANA)).toEqual([]);
    });

    it('a match called off tells the party who did not call it off, in words for why', async () => {
      await deliverTwice('matchCancelled', { ...parties, cancelledById: BOB, reason: 'withdrawn' });
      await deliverTwice('matchCancelled', { ...parties, matchId: 41, cancelledById: ANA, reason: 'declined' });
      await deliverTwice('matchCancelled', { ...parties, matchId: 42, cancelledById: ANA, reason: 'request-cancelled' });
      expect(await notificationsOf(ANA)).toEqual([
        { type: 'match_cancelled', referenceId: 12, read: false, params: { cancelReason: 'withdrawn' }, content: 'The user who accepted your exchange request #12 withdrew. Your request is open again.' },
      ]);
      expect(await notificationsOf(BOB)).toEqual([
        { type: 'match_cancelled', referenceId: 12, read: false, params: { cancelReason: 'request-cancelled' }, content: 'The owner cancelled exchange request #12, which you had accepted.' },
        { type: 'match_declined', referenceId: 12, read: false, params: {}, content: 'The owner of exchange request #12 declined your match.' },
      ]);
    });

    it('a match expired, a completion reminder and a request expired tell whom they concern', async () => {
      await deliverTwice('matchExpired', parties);
      await deliverTwice('matchCompletionReminded', { ...parties, hoursSinceConfirmed: 24 });
      await deliverTwice('requestExpired', { requestId: 14, userId: CARL });
      const reminder = { type: 'completion_reminder', referenceId: 12, read: false, params: { hoursSinceConfirmed: 24 },
        content: 'Your exchange on exchange request #12 was confirmed 24 hours ago. Once you have paid and been paid, mark it completed.' };
      expect(await notificationsOf(ANA)).toEqual([reminder, {
        type: 'match_expired', referenceId: 12, read: false, params: { role: 'requester' },
        content: 'The match on your exchange request #12 expired before you approved it. Your request is open again.',
      }]);
      expect(await notificationsOf(BOB)).toEqual([reminder, {
        type: 'match_expired', referenceId: 12, read: false, params: { role: 'matcher' }, content: 'Your match on exchange request #12 expired: its owner did not approve it in time.',
      }]);
      expect(await notificationsOf(CARL)).toEqual([{ type: 'request_expired', referenceId: 14, read: false, params: {}, content: 'Your exchange request #14 expired without a match.' }]);
    });

    it('a party marking their payment sent tells the other party, whichever side paid', async () => {
      await deliverTwice('matchPaymentMarked', { ...parties, paidById: BOB });
      await deliverTwice('matchPaymentMarked', { ...parties, paidById: ANA });
      const told = { type: 'payment_sent', referenceId: 12, read: false, params: {},
        content: 'Your exchange partner on exchange request #12 marked their payment sent. Check your bank account, then mark the exchange completed.' };
      expect(await notificationsOf(ANA)).toEqual([told]);
      expect(await notificationsOf(BOB)).toEqual([told]);
    });

    it('a dispute opened and resolved tells both parties, live, with the outcome and a sanction to the party who got it', async () => {
      await announced();
      await deliverTwice('disputeOpened', { ...parties, disputeId: 7, openedById: BOB, reason: 'no_payment' });
      const onHold = 'The exchange is on hold until an admin resolves it';
      expect(await notificationsOf(ANA)).toEqual([{ type: 'dispute_opened', referenceId: 12, read: false, params: { disputeReason: 'no_payment', openedByYou: false },
        content: `Your exchange partner opened a dispute on exchange request #12 (no payment received). ${onHold}: add what you know in its chat.` }]);
      expect(await notificationsOf(BOB)).toEqual([{ type: 'dispute_opened', referenceId: 12, read: false, params: { disputeReason: 'no_payment', openedByYou: true },
        content: `You opened a dispute on exchange request #12 (no payment received). ${onHold}.` }]);
      await deliverTwice('disputeResolved', { ...parties, disputeId: 7, outcome: 'cancelled', sanction: { userId: ANA, kind: 'suspension' } });
      // The match's own cancellation by the admin says nothing more: the resolution has told them.
      await deliverTwice('matchCancelled', { ...parties, cancelledById: 900, reason: 'dispute-cancelled' });
      expect((await notificationsOf(ANA))[0]).toEqual({ type: 'dispute_resolved', referenceId: 12, read: false, params: { outcome: 'cancelled', sanction: 'suspension' },
        content: 'An admin resolved the dispute on exchange request #12: the exchange was cancelled. Your trading is suspended until an admin lifts it.' });
      expect((await notificationsOf(BOB))[0]).toEqual({ type: 'dispute_resolved', referenceId: 12, read: false, params: { outcome: 'cancelled' },
        content: 'An admin resolved the dispute on exchange request #12: the exchange was cancelled.' });
      await deliverTwice('disputeResolved', { ...parties, matchId: 41, disputeId: 8, outcome: 'completed', sanction: { userId: BOB, kind: 'warning' } });
      expect((await notificationsOf(BOB))[0]).toMatchObject({ params: { outcome: 'completed', sanction: 'warning' },
        content: 'An admin resolved the dispute on exchange request #12: the exchange was marked completed. You received a warning.' });
      expect((await announced()).map((a) => `${a.to} ${a.type}`).sort()).toEqual([
        `${ANA} dispute_opened`, `${ANA} dispute_resolved`, `${ANA} dispute_resolved`, `${BOB} dispute_opened`, `${BOB} dispute_resolved`, `${BOB} dispute_resolved`,
      ]);
    });

    it('a failed premium payment tells the user, about no request', async () => {
      await deliverTwice('subscriptionPaymentFailed', { userId: CARL });
      expect(await notificationsOf(CARL)).toEqual([{
        type: 'payment_failed', referenceId: null, read: false, params: {},
        content: 'Your Premium payment failed. It will be tried again: check your card on the Subscription page to keep Premium.',
      }]);
    });

    it('never stores one event\'s notification twice, even when the inbox has forgotten the event', async () => {
      const event = makeEvent('matchCreated', 40, { ...parties, ...terms });
      await svc.deliver(event);
      await svc.ctx.orm.em.fork().execute('delete from "notification"."inbox_entry"');
      await svc.deliver(event);
      expect(await notificationsOf(ANA)).toHaveLength(1);
      expect(await announced()).toEqual([{ to: ANA, type: 'exchange_match', referenceId: 12, params: acceptedParams }]);
    });
  });

  describe('polling', () => {
    /** The SQL run from now on that reads or writes notifications (the outbox relay's own polling aside). */
    function notificationQueries() {
      const connection = svc.ctx.orm.em.getConnection();
      const spy = vi.spyOn(connection, 'execute');
      return {
        count: () => spy.mock.calls.filter(([sql]) => /"notification"\."notification"|from "notification" /.test(String(sql))).length,
        restore: () => spy.mockRestore(),
      };
    }

    it('answers an unchanged poll of the list or the count with 304 and no database query, until the caller\'s notifications change', async () => {
      await deliverTwice('matchCreated', { ...parties, ...terms });
      const list = await get('/notifications', ANA);
      const count = await get('/notifications/count', ANA);
      for (const res of [list, count]) {
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-cache');
        expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      }
      expect(NotificationCount.parse(count.json())).toEqual({ count: 1 });
      expect(list.headers.etag).not.toBe(count.headers.etag);

      const queries = notificationQueries();
      try {
        for (let i = 0; i < 5; i++) {
          expect((await get('/notifications', ANA, String(list.headers.etag))).statusCode).toBe(304);
          expect((await get('/notifications/count', ANA, String(count.headers.etag))).statusCode).toBe(304);
        }
        expect(queries.count()).toBe(0);
        // (The spy does see the queries of a full answer.)
        expect((await get('/notifications/count', ANA)).statusCode).toBe(200);
        expect(queries.count()).toBe(1);

        // Someone else's notification changes nothing for Ana.
        await deliverTwice('matchCreated', { ...parties, matchId: 50, requestId: 20, requesterId: CARL, ...terms });
        expect((await get('/notifications/count', ANA, String(count.headers.etag))).statusCode).toBe(304);

        // Her own new notification does: a full answer, with a new ETag.
        await deliverTwice('matchCompleted', { ...parties, ...terms, completedById: BOB });
        const after = await get('/notifications/count', ANA, String(count.headers.etag));
        expect(after.statusCode).toBe(200);
        expect(NotificationCount.parse(after.json())).toEqual({ count: 2 });
        expect(after.headers.etag).not.toBe(count.headers.etag);

        // So does reading them.
        expect((await put('/notifications/read-all', ANA)).statusCode).toBe(200);
        const read = await get('/notifications/count', ANA, String(after.headers.etag));
        expect(read.statusCode).toBe(200);
        expect(NotificationCount.parse(read.json())).toEqual({ count: 0 });
        const [first] = NotificationList.parse((await get('/notifications', ANA)).json());
        const listed = await get('/notifications', ANA);
        expect((await put(`/notifications/${first!.id}/read`, ANA)).statusCode).toBe(200);
        // Reading one that was already read changes nothing, and needs no new answer.
        expect((await get('/notifications', ANA, String(listed.headers.etag))).statusCode).toBe(304);
      } finally {
        queries.restore();
      }
    });
  });
});
