/**
 * exchange.request.notifications-sent fans an exchange_request notification out to every user who could take the
 * request (an account in both currencies, not its owner), from the projection of accounts' events, page by page.
 */
import { afterAll, beforeAll, beforeEach, expect, it, vi, type MockInstance } from 'vitest';
import type { Currency, EventEnvelope } from '@puente/contracts';
import { makeEvent, readEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import { AccountHolder } from './domain/account-holders.ts';
import { notifyTakersPage } from './domain/fan-out.ts';
import { Notification } from './domain/notification.ts';
import { FAN_OUT_PAGE_SIZE, FAN_OUT_REQUEST_NOTIFICATION, type FanOutData } from './jobs/fan-out-request-notification.ts';

type RequestTerms = FanOutData['terms'];

const PAGE_SIZE = 2;
const GBP_500: RequestTerms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '500.00', exchangeRate: '1275.0000' };
/** As the exchange service publishes a CLP request (a numeric(14,2) column read back). */
const CLP_255000: RequestTerms = { fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000.00', exchangeRate: '1275.0000' };

describeWithInfra(['postgres'], 'the exchange request fan-out', () => {
  const db = useFreshDatabase('notification');
  let svc: TestService;
  let enqueue: MockInstance;
  /** The fan-out job's handler, to see each page job settle. */
  let handle: MockInstance;
  let nextAccountId = 1;
  let nextRequestId = 1;

  beforeAll(async () => {
    const def = notificationService(NotificationSettings.parse({ PROJECTION_BACKFILL: 'off' }), { fanOutPageSize: PAGE_SIZE });
    handle = vi.spyOn(def.jobs!.find((j) => j.name === FAN_OUT_REQUEST_NOTIFICATION)!, 'handle');
    svc = await startTestService(def, db.url);
    enqueue = vi.spyOn(svc.ctx.jobs, 'enqueue');
  });
  afterAll(async () => { await svc?.stop(); });
  beforeEach(async () => {
    const em = svc.ctx.orm.em.fork();
    await em.nativeDelete(Notification, {});
    await em.nativeDelete(AccountHolder, {});
    enqueue.mockClear();
    handle.mockClear();
  });

  const em = () => svc.ctx.orm.em.fork();

  /** The user adds an account in each currency (through accounts' events); returns the account ids. */
  async function holds(userId: number, ...currencies: Currency[]): Promise<number[]> {
    const ids = currencies.map(() => nextAccountId++);
    await svc.deliver(...currencies.map((currency, i) => makeEvent('bankAccountAdded', ids[i]!, { accountId: ids[i]!, userId, currency })));
    return ids;
  }

  function notificationsSent(ownerId: number, terms: RequestTerms = GBP_500, requestId = nextRequestId++): EventEnvelope {
    return makeEvent('requestNotificationsSent', requestId, { requestId, userId: ownerId, ...terms });
  }

  /** The notifications an event caused, by user. */
  async function notifiedBy(event: EventEnvelope) {
    return (await em().find(Notification, { sourceEventId: event.id }, { orderBy: { userId: 'asc' } }))
      .map(({ userId, type, content, read, referenceId }) => ({ userId, type, content, read, referenceId }));
  }

  /** The fan-out's page jobs enqueued so far for an event: where each page starts. */
  const pagesOf = (event: EventEnvelope): number[] => enqueue.mock.calls
    .filter(([name, data]) => name === FAN_OUT_REQUEST_NOTIFICATION && (data as { eventId: string }).eventId === event.id)
    .map(([, data, opts]) => {
      expect(opts).toEqual({ jobId: `${event.id}:${(data as { afterUserId: number }).afterUserId}` });
      return (data as { afterUserId: number }).afterUserId;
    });

  /** How many of the event's page jobs have run to the end. */
  const settledPagesOf = (event: EventEnvelope): number => handle.mock.calls
    .filter(([data], i) => (data as { eventId: string }).eventId === event.id && handle.mock.settledResults[i]?.type === 'fulfilled')
    .length;

  /**
   * Waits until every page job the fan-out of `event` enqueued has run — the last one a short page (fewer users than
   * the page size) — and returns the users it notified, in id order. `pages`: how many page jobs it takes (the
   * takers ÷ the page size, rounded down, plus one).
   */
  async function fannedOut(event: EventEnvelope, pages: number): Promise<number[]> {
    await vi.waitFor(() => {
      expect(pagesOf(event)).toHaveLength(pages);
      expect(settledPagesOf(event)).toBe(pages);
    }, { timeout: 4_000 });
    expect(await svc.ctx.jobs.listFailed()).toEqual([]);
    return (await notifiedBy(event)).map((n) => n.userId);
  }

  it('notifies each user with both accounts once; not the owner, a user with one currency, or one whose account was removed', async () => {
    await holds(1, 'GBP', 'CLP'); // the owner
    await holds(2, 'GBP', 'CLP');
    await holds(3, 'CLP', 'GBP');
    await holds(4, 'GBP');
    await holds(5, 'CLP');
    const [, removedClp] = await holds(6, 'GBP', 'CLP');
    await svc.deliver(makeEvent('bankAccountRemoved', removedClp!, { accountId: removedClp!, userId: 6, currency: 'CLP' }));
    // Two accounts of the same currency would not make a taker either (accounts allows one per currency).
    await holds(7, 'GBP');
    await holds(7, 'GBP');

    const event = notificationsSent(1, GBP_500, 12);
    await svc.deliver(event);
    expect(await fannedOut(event, 2)).toEqual([2, 3]);
    const content = 'New exchange request #12 at 1275.0000 CLP per GBP. You pay $637,500 CLP · You receive £500.00';
    expect(await notifiedBy(event)).toEqual([
      { userId: 2, type: 'exchange_request', content, read: false, referenceId: 12 },
      { userId: 3, type: 'exchange_request', content, read: false, referenceId: 12 },
    ]);
    // A full first page (2 users) asks for the next one, which is empty and ends the fan-out.
    expect(pagesOf(event)).toEqual([0, 3]);
    // Each notified user's open tabs are told (the gateway pushes notificationCreated to their sockets), once.
    await svc.ctx.relay.flush();
    const announced = svc.published().flatMap((e) => readEvent('notificationCreated', e) ?? []);
    expect(announced.map(({ userId, type, content: text, referenceId }) => ({ userId, type, content: text, referenceId }))).toEqual([
      { userId: 2, type: 'exchange_request', content, referenceId: 12 },
      { userId: 3, type: 'exchange_request', content, referenceId: 12 },
    ]);
  });

  it('a removed account that comes back (a new account) makes its user a taker again', async () => {
    const [, clp] = await holds(2, 'GBP', 'CLP');
    await svc.deliver(makeEvent('bankAccountRemoved', clp!, { accountId: clp!, userId: 2, currency: 'CLP' }));
    // The added event of the removed account seen once more (a new envelope with the same fact): still removed.
    await svc.deliver(makeEvent('bankAccountAdded', clp!, { accountId: clp!, userId: 2, currency: 'CLP' }));
    const before = notificationsSent(1);
    await svc.deliver(before);
    expect(await fannedOut(before, 1)).toEqual([]);

    await holds(2, 'CLP');
    const after = notificationsSent(1);
    await svc.deliver(after);
    expect(await fannedOut(after, 1)).toEqual([2]);
  });

  it('pages through the takers in user id order, page size 2 over 5 takers, reaching each exactly once', async () => {
    for (const taker of [50, 10, 40, 20, 30]) await holds(taker, 'GBP', 'CLP');
    await holds(25, 'GBP', 'CLP'); // the owner, in the middle of the range
    await holds(15, 'CLP'); // one currency only, between takers
    await holds(35, 'GBP');

    const event = notificationsSent(25);
    await svc.deliver(event);
    expect(await fannedOut(event, 3)).toEqual([10, 20, 30, 40, 50]);
    // Pages [10, 20], [30, 40] (the owner skipped, not counted), then [50]: short, the last.
    expect(pagesOf(event)).toEqual([0, 20, 40]);
    const [row] = await em().execute<{ n: number; users: number }[]>(
      'select count(*)::int as n, count(distinct user_id)::int as users from notification.notification where source_event_id = ?', [event.id]);
    expect(row).toEqual({ n: 5, users: 5 });
  });

  it('leaves out the users the owner blocked or was blocked by, on every page', async () => {
    for (const userId of [1, 2, 3, 4, 5, 6]) await holds(userId, 'GBP', 'CLP');
    const event = makeEvent('requestNotificationsSent', nextRequestId, {
      requestId: nextRequestId++, userId: 1, ...GBP_500, excludedUserIds: [2, 5],
    });
    await svc.deliver(event);
    expect(await fannedOut(event, 2)).toEqual([3, 4, 6]);
  });

  it('notifies once when the same event is delivered twice, or a page runs again', async () => {
    await holds(1, 'GBP', 'CLP');
    await holds(2, 'GBP', 'CLP');
    await holds(3, 'GBP', 'CLP');
    await holds(4, 'GBP', 'CLP');
    const event = notificationsSent(1);
    await svc.deliver(event, event); // at-least-once delivery: the same envelope twice
    await svc.deliver(event); // and once more later
    expect(await fannedOut(event, 2)).toEqual([2, 3, 4]);
    expect(pagesOf(event)).toEqual([0, 3]); // the inbox skipped the redeliveries: one fan-out
    const [inbox] = await em().execute<{ n: number }[]>('select count(*)::int as n from notification.inbox_entry where event_id = ?', [event.id]);
    expect(inbox).toEqual({ n: 1 });

    // A page that runs again (a retry after a crash between its insert and its next page) notifies nobody twice.
    const again = { eventId: event.id, requestId: Number(event.aggregateId), ownerId: 1, content: 'again', params: {}, afterUserId: 0 };
    expect(await notifyTakersPage(em(), again, PAGE_SIZE)).toEqual({ users: 2, notified: [], lastUserId: 3 });
    expect(await notifyTakersPage(em(), { ...again, afterUserId: 3 }, PAGE_SIZE)).toEqual({ users: 1, notified: [], lastUserId: 4 });
    // And a second enqueue of the whole fan-out (a redelivery after a lost commit) changes nothing.
    await svc.ctx.jobs.enqueue(FAN_OUT_REQUEST_NOTIFICATION, {
      eventId: event.id, requestId: again.requestId, ownerId: 1, terms: GBP_500, afterUserId: 0,
    }, { jobId: `${event.id}:0` });
    await vi.waitFor(() => {
      expect(pagesOf(event)).toEqual([0, 3, 0, 3]);
      expect(settledPagesOf(event)).toBe(4);
    }, { timeout: 4_000 });
    expect((await notifiedBy(event)).map((n) => n.userId)).toEqual([2, 3, 4]);
    expect(await em().count(Notification, {})).toBe(3);
  });

  it('notifies again when the owner asks again an hour later (a new event)', async () => {
    await holds(1, 'GBP', 'CLP');
    await holds(2, 'GBP', 'CLP');
    const first = notificationsSent(1, GBP_500, 40);
    await svc.deliver(first);
    expect(await fannedOut(first, 1)).toEqual([2]);
    const second = notificationsSent(1, GBP_500, 40);
    await svc.deliver(second);
    expect(await fannedOut(second, 1)).toEqual([2]);
    const rows = await em().find(Notification, { userId: 2 }, { orderBy: { id: 'asc' } });
    expect(rows.map((n) => [n.referenceId, n.sourceEventId])).toEqual([[40, first.id], [40, second.id]]);
  });

  it('writes what a taker pays and receives in the spec\'s money display for both directions', async () => {
    await holds(1, 'GBP', 'CLP');
    await holds(2, 'GBP', 'CLP');
    const gbp = notificationsSent(1, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '10000.50', exchangeRate: '1187.5432' }, 12);
    const clp = notificationsSent(1, CLP_255000, 13);
    await svc.deliver(gbp, clp);
    await fannedOut(gbp, 1);
    await fannedOut(clp, 1);
    // £10,000.50 × 1187.5432 = $11,876,025.7716 CLP, to the peso; $255,000 CLP ÷ 1275 = £200.00.
    expect((await notifiedBy(gbp))[0]?.content).toBe('New exchange request #12 at 1187.5432 CLP per GBP. You pay $11,876,026 CLP · You receive £10,000.50');
    expect((await notifiedBy(clp))[0]?.content).toBe('New exchange request #13 at 1275.0000 CLP per GBP. You pay £200.00 · You receive $255,000 CLP');
  });

  it('pages 500 users a job by default, and refuses a page size that is not a positive whole number', () => {
    expect(FAN_OUT_PAGE_SIZE).toBe(500);
    expect(notificationService().jobs?.map((j) => j.name)).toContain(FAN_OUT_REQUEST_NOTIFICATION);
    for (const fanOutPageSize of [0, -1, 2.5]) expect(() => notificationService(undefined, { fanOutPageSize })).toThrow(/fanOutPageSize/);
  });
});
