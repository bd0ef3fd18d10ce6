/**
 * The notification routes: the caller's own list (newest first, paginated), the unread count, mark one read (own
 * only), mark all read; on real Postgres, notifications made by the fan-out and by rows written directly.
 */
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { ErrorBody, FirstPolls, Message, Notification as NotificationBody, NotificationCount, NotificationList } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import { AccountHolder } from './domain/account-holders.ts';
import { Notification } from './domain/notification.ts';

const ANA = 1;
const BOB = 2;
const CARL = 3;

describeWithInfra(['postgres'], 'the notification routes', () => {
  const db = useFreshDatabase('notification');
  let svc: TestService;
  let nextAccountId = 1;

  beforeAll(async () => { svc = await startTestService(notificationService(NotificationSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url); });
  afterAll(async () => { await svc?.stop(); });
  beforeEach(async () => {
    const em = svc.ctx.orm.em.fork();
    await em.nativeDelete(Notification, {});
    await em.nativeDelete(AccountHolder, {});
  });

  const em = () => svc.ctx.orm.em.fork();
  const as = (userId: number) => svc.as({ kind: 'user', userId, role: 'user' });
  const inject = async (method: 'GET' | 'PUT', url: string, userId?: number) =>
    svc.app.inject({ method, url, headers: userId === undefined ? {} : await as(userId) });

  /**
   * Writes notifications for a user, oldest first, one minute apart, without params (as those stored before
   * notifications had them); returns them as the contract shows them.
   */
  async function notify(userId: number, ...contents: string[]): Promise<NotificationBody[]> {
    const fork = em();
    const rows = contents.map((content, i) => fork.create(Notification, {
      userId, type: 'rating', content, read: false, referenceId: 100 + i,
      createdAt: new Date(Date.UTC(2026, 2, 10, 12, i)), sourceEventId: null,
    }));
    await fork.flush();
    return rows.map((n) => ({
      id: n.id, type: n.type, content: n.content, params: null, read: false, referenceId: n.referenceId ?? null, createdAt: n.createdAt.toISOString(),
    }));
  }

  async function list(userId: number, query = ''): Promise<{ items: NotificationBody[]; total: number }> {
    const res = await inject('GET', `/notifications${query}`, userId);
    expect(res.statusCode, res.body).toBe(200);
    return { items: NotificationList.parse(res.json()), total: Number(res.headers['x-total-count']) };
  }

  async function count(userId: number): Promise<NotificationCount> {
    const res = await inject('GET', '/notifications/count', userId);
    expect(res.statusCode, res.body).toBe(200);
    return NotificationCount.parse(res.json());
  }

  async function read(userId: number, id: number | string, status = 200) {
    const res = await inject('PUT', `/notifications/${id}/read`, userId);
    expect(res.statusCode, res.body).toBe(status);
    return res.json<unknown>();
  }

  it('lists the caller\'s own notifications, newest first, made by the exchange request fan-out', async () => {
    for (const userId of [ANA, BOB, CARL]) {
      const ids = [nextAccountId++, nextAccountId++];
      await svc.deliver(
        makeEvent('bankAccountAdded', ids[0]!, { accountId: ids[0]!, userId, currency: 'GBP' }),
        makeEvent('bankAccountAdded', ids[1]!, { accountId: ids[1]!, userId, currency: 'CLP' }),
      );
    }
    const event = makeEvent('requestNotificationsSent', 12, {
      requestId: 12, userId: ANA, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '500.00', exchangeRate: '1275.0000',
    });
    await svc.deliver(event);
    await vi.waitFor(async () => { expect(await em().count(Notification, { sourceEventId: event.id })).toBe(2); }, { timeout: 4_000 });
    const [row] = await em().find(Notification, { userId: BOB });
    const content = 'New exchange request #12 at 1275.0000 CLP per GBP. You pay $637,500 CLP · You receive £500.00';
    expect(await list(BOB)).toEqual({
      items: [{
        id: row!.id, type: 'exchange_request', content, read: false, referenceId: 12, createdAt: row!.createdAt.toISOString(),
        params: {
          amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP', exchangeRate: '1275.0000',
          payAmount: '637500', payCurrency: 'CLP', receiveAmount: '500.00', receiveCurrency: 'GBP',
        },
      }],
      total: 1,
    });
    expect(await list(ANA)).toEqual({ items: [], total: 0 }); // the owner is not told of their own request
    expect(await count(BOB)).toEqual({ count: 1 });
    expect(await count(ANA)).toEqual({ count: 0 });
  });

  it('lists own only, newest first, by limit and offset with X-Total-Count', async () => {
    const ana = await notify(ANA, 'a1', 'a2', 'a3');
    const bob = await notify(BOB, 'b1');
    const newestFirst = [...ana].reverse();
    expect(await list(ANA)).toEqual({ items: newestFirst, total: 3 });
    expect(await list(ANA, '?limit=2')).toEqual({ items: newestFirst.slice(0, 2), total: 3 });
    expect(await list(ANA, '?limit=2&offset=2')).toEqual({ items: newestFirst.slice(2), total: 3 });
    expect(await list(ANA, '?offset=5')).toEqual({ items: [], total: 3 });
    expect(await list(BOB)).toEqual({ items: bob, total: 1 });
    expect(await list(CARL)).toEqual({ items: [], total: 0 });

    const bad = await inject('GET', '/notifications?limit=0', ANA);
    expect(bad.statusCode).toBe(400);
    const message = 'limit must be a whole number from 1 to 500';
    expect(ErrorBody.parse(bad.json())).toEqual({ message, code: 'validation_failed', errors: [{ field: 'limit', message }] });
  });

  it('lists a notification stored before params existed (a row without the column\'s value) with params null', async () => {
    const [row] = await em().execute<{ id: number }[]>(
      `insert into notification.notification (user_id, type, content, read, reference_id, created_at)
       values (?, 'request_expired', 'Your exchange request #7 expired without a match.', false, 7, now()) returning id`, [ANA]);
    expect((await list(ANA)).items).toEqual([expect.objectContaining({ id: row!.id, content: 'Your exchange request #7 expired without a match.', params: null })]);
  });

  it('counts the caller\'s unread; reading one drops the count, and reading it again changes nothing', async () => {
    const [first, second] = await notify(ANA, 'a1', 'a2');
    await notify(BOB, 'b1');
    expect(await count(ANA)).toEqual({ count: 2 });

    expect(NotificationBody.parse(await read(ANA, first!.id))).toEqual({ ...first, read: true });
    expect(await count(ANA)).toEqual({ count: 1 });
    expect(NotificationBody.parse(await read(ANA, first!.id))).toEqual({ ...first, read: true }); // idempotent
    expect(await count(ANA)).toEqual({ count: 1 });
    expect(await count(BOB)).toEqual({ count: 1 });
    expect((await list(ANA)).items).toEqual([second, { ...first, read: true }]);
  });

  it('answers 404 for another user\'s notification or an unknown id, 400 for a non-numeric id', async () => {
    const [bobs] = await notify(BOB, 'b1');
    for (const id of [bobs!.id, 999_999]) {
      expect(ErrorBody.parse(await read(ANA, id, 404))).toEqual({ message: 'Notification not found', code: 'not_found' });
    }
    expect(await count(BOB)).toEqual({ count: 1 }); // Bob's is untouched
    expect(ErrorBody.parse(await read(ANA, 'abc', 400))).toEqual({
      message: 'Invalid id', code: 'validation_failed', errors: [{ field: 'id', message: 'Invalid id' }],
    });
  });

  it('marks all of the caller\'s notifications read, and only the caller\'s', async () => {
    const ana = await notify(ANA, 'a1', 'a2', 'a3');
    const bob = await notify(BOB, 'b1', 'b2');
    await read(ANA, ana[0]!.id);
    const res = await inject('PUT', '/notifications/read-all', ANA);
    expect(res.statusCode, res.body).toBe(200);
    expect(Message.parse(res.json())).toEqual({ message: 'All notifications marked as read' });
    expect(await count(ANA)).toEqual({ count: 0 });
    expect((await list(ANA)).items).toEqual([...ana].reverse().map((n) => ({ ...n, read: true })));
    expect(await count(BOB)).toEqual({ count: 2 });
    expect((await list(BOB)).items).toEqual([...bob].reverse());
    // Nothing unread: still 200.
    expect((await inject('PUT', '/notifications/read-all', ANA)).statusCode).toBe(200);
  });

  it('answers a visitor 401 on every notification route', async () => {
    const [n] = await notify(ANA, 'a1');
    for (const [method, url] of [['GET', '/notifications'], ['GET', '/notifications/count'], ['PUT', '/notifications/read-all'],
      ['PUT', `/notifications/${n!.id}/read`]] as const) {
      const res = await inject(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(ErrorBody.parse(res.json())).toEqual({ message: 'Authentication required', code: 'unauthorized' });
    }
    expect(await count(ANA)).toEqual({ count: 1 });
  });
  it('answers the gateway\'s batch of first polls as each user\'s own list page and count would, and only the gateway', async () => {
    const anas = await notify(ANA, 'one', 'two', 'three');
    await notify(BOB, 'four');
    await read(BOB, (await list(BOB)).items[0]!.id);
    const body = { userIds: [ANA, BOB, CARL], limit: 2 };
    const batch = async (caller: Parameters<typeof svc.as>[0]) =>
      svc.app.inject({ method: 'POST', url: '/internal/notifications/first-polls', headers: await svc.as(caller), payload: body });
    const res = await batch({ kind: 'service', service: 'gateway' });
    expect(res.statusCode, res.body).toBe(200);
    const answers = FirstPolls.parse(res.json());
    const own = await Promise.all(body.userIds.map(async (userId) => {
      const page = await list(userId, '?limit=2');
      return { userId, notifications: page.items, total: page.total, unread: (await count(userId)).count };
    }));
    expect(answers).toEqual(own);
    expect(answers[0]!.notifications.map((n) => n.content)).toEqual([anas[2]!.content, anas[1]!.content]);
    expect(answers.map((a) => [a.total, a.unread])).toEqual([[3, 3], [1, 0], [0, 0]]);
    expect((await batch({ kind: 'service', service: 'exchange' })).statusCode).toBe(403);
    expect((await batch({ kind: 'user', userId: ANA, role: 'user' })).statusCode).toBe(403);
  });
});
