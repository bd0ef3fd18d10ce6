/**
 * Polled reads at the gateway, against services that serve the real route declarations (the platform's serve():
 * their conditional answers come from the same versions the gateway reads). The fake market answers as the exchange
 * service does: the shared list to a viewer without blocks (saying so), a filtered one to a viewer with blocks; and
 * its versions are set as the exchange service sets them: a viewer's kept key on each of their blocks, and the mark
 * that all are set.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import {
  ErrorBody, ExchangeRequestList, ExchangeVersions, KEPT_KEYS_SET, NOTIFICATIONS_SHOWN, NotificationCount, NotificationList, NotificationVersions, POLL_AUDIENCE_HEADER, Routes, type ExchangeRequest,
  type ServiceName,
} from '@puente/contracts';
import { answeredNotModified, createHttpApp, MemoryVersionStore, requireUser, serve, serviceVersions } from '@puente/platform';
import { testAuth } from '@puente/platform/testing';
import { buildTestGateway, login, logger, sessionCookieOf, startFakeService, users, type FakeUpstream } from './test-helpers.ts';

const versions = new MemoryVersionStore();

/** A service answering one polled route; `asked` counts the requests that reached it. */
async function pollingService(name: ServiceName, register: (app: FastifyInstance) => void, store = versions) {
  const app = createHttpApp({ logger, auth: testAuth(name) });
  app.decorate('versions', serviceVersions(store, name, logger));
  let asked = 0;
  app.addHook('onRequest', async () => { asked++; });
  register(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, asked: () => asked };
}

const request = (id: number): ExchangeRequest => ({
  id, userId: 9, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275, status: 'open', createdAt: '2026-11-25T10:00:00.000Z',
  user: { firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, trustRating: null, transactionCount: 0, completionRate: null, averageCompletionMinutes: null, memberSince: null },
});

describe('polled reads answered at the gateway', () => {
  let identity: FakeUpstream;
  let exchange: Awaited<ReturnType<typeof pollingService>>;
  let notification: Awaited<ReturnType<typeof pollingService>>;
  let gateway: FastifyInstance;
  let market = [request(1)];
  const unread: Record<number, number> = { 1: 3, 2: 0 };
  let ana: string;
  let ben: string;
  let dora: string;
  /** How many times the fake market built its list (a 304 builds none). */
  let listed = 0;
  /** Users with blocks (the market hides user 9's requests from them), as the exchange service would find them. */
  const withBlocks = new Set<number>();
  /** How long the fake market takes to build its list (a busy service). */
  let listingMs = 0;
  /** The users each batch of first polls named. */
  const batches: number[][] = [];
  /** How long the fake takes to answer a batch of first polls (a backed-up service), and how many it answered. */
  let batchMs = 0;
  let batchesAnswered = 0;

  beforeAll(async () => {
    identity = await startFakeService('identity');
    // As the exchange service answers: the shared list, with the market's ETag, to a viewer without blocks.
    exchange = await pollingService('exchange', (app) => serve(app, Routes.exchange.requests, async (req, reply) => {
      if (withBlocks.has(requireUser(req).userId)) return (listed++, market.filter((r) => r.userId !== 9));
      reply.header(POLL_AUDIENCE_HEADER, 'everyone');
      if (await answeredNotModified(req, reply, app.versions, Routes.exchange.requests.polled.keys())) return reply;
      listed++;
      if (listingMs > 0) await new Promise((resolve) => setTimeout(resolve, listingMs));
      return market;
    }));
    notification = await pollingService('notification', (app) => {
      serve(app, Routes.notification.count, async (req) => ({ count: unread[requireUser(req).userId] ?? 0 }));
      serve(app, Routes.notification.list, async (_req, reply) => (reply.header('x-total-count', '0'), []));
      serve(app, Routes.notification.firstPolls, async (req) => {
        batches.push(req.body.userIds);
        if (batchMs > 0) await new Promise((resolve) => setTimeout(resolve, batchMs));
        batchesAnswered++;
        return req.body.userIds.map((userId) => ({ userId, notifications: [], total: 0, unread: unread[userId] ?? 0 }));
      });
    });
    gateway = await buildTestGateway({ serviceUrls: { identity: identity.url, exchange: exchange.url, notification: notification.url }, versions });
    await serviceVersions(versions, 'exchange', logger).bump([KEPT_KEYS_SET]); // no one in a block yet
    ana = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    ben = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    dora = sessionCookieOf(await login(gateway, 'dora@example.com'))!;
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([identity?.close(), exchange?.app.close(), notification?.app.close()]);
  });

  const poll = (url: string, cookie: string, etag?: string) =>
    gateway.inject({ method: 'GET', url, headers: { cookie, ...(etag ? { 'if-none-match': etag } : {}) } });
  const bumpMarket = () => serviceVersions(versions, 'exchange', logger).bump([ExchangeVersions.market]);
  /** A block made or lifted: the exchange service sets the viewer's kept key. */
  const blockChanged = (userId: number) => serviceVersions(versions, 'exchange', logger).bump([ExchangeVersions.viewer(userId)]);

  it('serves the market to a user in no block from its one kept copy, without asking the service: their key has no version', async () => {
    const asked = exchange.asked();
    const first = await poll('/api/exchange-requests', ana); // the first ever: fetched for everyone
    expect(first.statusCode).toBe(200);
    expect(first.headers[POLL_AUDIENCE_HEADER]).toBe('everyone');
    expect(exchange.asked()).toBe(asked + 1);
    const forBen = await poll('/api/exchange-requests', ben);
    expect([forBen.statusCode, forBen.body, forBen.headers.etag]).toEqual([200, first.body, first.headers.etag]);
    expect(exchange.asked()).toBe(asked + 1);
  });

  it('answers an unchanged poll 304 itself, without asking the service', async () => {
    const first = await poll('/api/exchange-requests', ana);
    expect(first.statusCode).toBe(200);
    expect(ExchangeRequestList.parse(first.json())).toEqual(market);
    const etag = String(first.headers.etag);
    const asked = exchange.asked();
    for (let i = 0; i < 5; i++) {
      const again = await poll('/api/exchange-requests', ana, etag);
      expect(again.statusCode).toBe(304);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('private, no-cache');
    }
    expect(exchange.asked()).toBe(asked);
  });

  it('keeps the market\'s answer and serves it to every user while it is unchanged', async () => {
    const first = await poll('/api/exchange-requests', ana);
    const asked = exchange.asked();
    const forBen = await poll('/api/exchange-requests', ben);
    expect(forBen.statusCode).toBe(200);
    expect(forBen.body).toBe(first.body);
    expect(forBen.headers.etag).toBe(first.headers.etag);
    expect(forBen.headers['x-total-count']).toBe(first.headers['x-total-count']);
    expect(exchange.asked()).toBe(asked);
    // Another query is another answer.
    expect((await poll('/api/exchange-requests?sort=amount', ben)).statusCode).toBe(200);
    expect(exchange.asked()).toBe(asked + 1);
  });

  it('after a change, asks the service once, and every poll meanwhile (each screen told of the change) gets the new list', async () => {
    const before = await poll('/api/exchange-requests', ana);
    const beforeTag = String(before.headers.etag);
    market = [request(2), request(1)];
    await bumpMarket();
    const asked = exchange.asked();
    const polls = await Promise.all(Array.from({ length: 20 }, (_, i) => poll('/api/exchange-requests', i % 2 ? ana : ben, beforeTag)));
    expect(exchange.asked()).toBe(asked + 1);
    for (const res of polls) {
      expect(res.statusCode).toBe(200);
      expect(ExchangeRequestList.parse(res.json()).map((r) => r.id)).toEqual([2, 1]);
    }
  });

  it('while a busy service is slow to give the changed list, answers a first poll meanwhile as of just before, and has a screen holding that list wait for the new one', async () => {
    const before = await poll('/api/exchange-requests', ana);
    const beforeTag = String(before.headers.etag);
    market = [request(3), request(2), request(1)];
    await bumpMarket();
    const [asked, built] = [exchange.asked(), listed];
    listingMs = 1_000;
    try {
      const fetching = poll('/api/exchange-requests', ana, beforeTag);
      await vi.waitFor(() => expect(listed).toBe(built + 1)); // the fetch is under way
      // A first poll (a new tab) gets the list from just before at once, rather than waiting on the busy service.
      const started = performance.now();
      const first = await poll('/api/exchange-requests', ben);
      expect(performance.now() - started).toBeLessThan(900);
      expect(first.statusCode).toBe(200);
      expect(first.headers.etag).toBe(beforeTag);
      expect(ExchangeRequestList.parse(first.json()).map((r) => r.id)).toEqual([2, 1]);
      // A screen that holds that list (told of the change) would only hear 'nothing new': it waits for the new list.
      const told = await Promise.all(Array.from({ length: 10 }, (_, i) => poll('/api/exchange-requests', i % 2 ? ana : ben, beforeTag)));
      for (const res of told) expect(ExchangeRequestList.parse(res.json()).map((r) => r.id)).toEqual([3, 2, 1]);
      expect(ExchangeRequestList.parse((await fetching).json()).map((r) => r.id)).toEqual([3, 2, 1]);
    } finally {
      listingMs = 0;
    }
    // Everyone's next poll sees the change, without asking the service again.
    for (const cookie of [ana, ben]) {
      const next = await poll('/api/exchange-requests', cookie, beforeTag);
      expect(ExchangeRequestList.parse(next.json()).map((r) => r.id)).toEqual([3, 2, 1]);
    }
    expect(exchange.asked()).toBe(asked + 1);
  });

  it('asks the service once for a list first polled by many at the same moment (all wait for that answer)', async () => {
    const asked = exchange.asked();
    const polls = await Promise.all(Array.from({ length: 10 }, (_, i) => poll('/api/exchange-requests?sort=rate', i % 2 ? ana : ben)));
    expect(exchange.asked()).toBe(asked + 1);
    for (const res of polls) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(polls[0]!.body);
    }
  });

  it('sends the market compressed as the browser accepts it, with a weak ETag that revalidates to 304', async () => {
    const plain = await poll('/api/exchange-requests', ana);
    const asked = exchange.asked();
    const inEncoding = async (encoding: string) => gateway.inject({ method: 'GET', url: '/api/exchange-requests', headers: { cookie: ben, 'accept-encoding': encoding } });
    const br = await inEncoding('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(br.headers.etag).toBe(`W/${String(plain.headers.etag)}`);
    expect(br.headers.vary).toBe('accept-encoding');
    const gzip = await inEncoding('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const revalidated = await gateway.inject({ method: 'GET', url: '/api/exchange-requests', headers: { cookie: ben, 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    expect(exchange.asked()).toBe(asked);
  });

  it('answers a user\'s own poll 304 itself too, but never gives one user\'s answer to another', async () => {
    const forAna = await poll('/api/notifications/count', ana);
    expect(NotificationCount.parse(forAna.json())).toEqual({ count: 3 });
    const asked = notification.asked();
    expect((await poll('/api/notifications/count', ana, String(forAna.headers.etag))).statusCode).toBe(304);
    expect(notification.asked()).toBe(asked);
    // Ben's count is his own: it comes from the service, with an ETag of its own, even sent Ana's.
    const forBen = await poll('/api/notifications/count', ben, String(forAna.headers.etag));
    expect(forBen.statusCode).toBe(200);
    expect(NotificationCount.parse(forBen.json())).toEqual({ count: 0 });
    expect(forBen.headers.etag).not.toBe(forAna.headers.etag);
    expect(notification.asked()).toBe(asked + 1);
    // A new notification for Ana: her next poll is a full answer.
    unread[1] = 4;
    await serviceVersions(versions, 'notification', logger).bump([NotificationVersions.unread(1)]);
    const after = await poll('/api/notifications/count', ana, String(forAna.headers.etag));
    expect(NotificationCount.parse(after.json())).toEqual({ count: 4 });
  });

  it('asks the service for the market of a user with blocks after each change, answers their unchanged polls 304, and never gives them the kept copy', async () => {
    withBlocks.add(4);
    await blockChanged(4);
    market = [request(3), { ...request(4), userId: 10 }];
    await bumpMarket();
    const shared = await poll('/api/exchange-requests', ana); // kept for everyone
    const asked = exchange.asked();
    const own = await poll('/api/exchange-requests', dora);
    expect(ExchangeRequestList.parse(own.json()).map((r) => r.id)).toEqual([4]);
    expect(own.headers[POLL_AUDIENCE_HEADER]).toBeUndefined();
    expect(own.headers.etag).not.toBe(shared.headers.etag);
    expect((await poll('/api/exchange-requests', dora, String(own.headers.etag))).statusCode).toBe(304);
    expect((await poll('/api/exchange-requests', dora, String(shared.headers.etag))).statusCode).toBe(200);
    expect(exchange.asked()).toBe(asked + 2);
  });

  it('asks the service again once a user\'s own version changes (they blocked someone), whatever it said before', async () => {
    withBlocks.delete(4);
    const viewer = () => blockChanged(4);
    await viewer();
    const asDora = await poll('/api/exchange-requests', dora); // heard: Dora sees the list everyone sees
    expect(ExchangeRequestList.parse(asDora.json()).map((r) => r.id)).toEqual([3, 4]);
    const heard = exchange.asked();
    const kept = await poll('/api/exchange-requests', dora);
    expect(kept.body).toBe(asDora.body);
    expect(exchange.asked()).toBe(heard); // the copy kept for everyone
    const tag = String(kept.headers.etag);
    expect((await poll('/api/exchange-requests', dora, tag)).statusCode).toBe(304);
    withBlocks.add(4);
    await viewer();
    const asked = exchange.asked();
    const after = await poll('/api/exchange-requests', dora, tag);
    expect(after.statusCode).toBe(200);
    expect(ExchangeRequestList.parse(after.json()).map((r) => r.id)).toEqual([4]);
    expect(exchange.asked()).toBe(asked + 1);
    // Everyone else keeps the shared copy, unasked.
    expect((await poll('/api/exchange-requests', ben, tag)).statusCode).toBe(304);
    expect(exchange.asked()).toBe(asked + 1);
  });

  it('gives a new user in no block the kept copy at their first poll, unasked; one in a block their own list', async () => {
    withBlocks.clear();
    const shared = await poll('/api/exchange-requests', ben);
    const [asked, built] = [exchange.asked(), listed];
    Object.assign(users, { 'eve@example.com': { id: 5, role: 'user' }, 'fay@example.com': { id: 6, role: 'user' } });
    const eve = sessionCookieOf(await login(gateway, 'eve@example.com'))!;
    const first = await poll('/api/exchange-requests', eve);
    expect(first.statusCode).toBe(200);
    expect([first.body, first.headers.etag, first.headers['x-total-count']]).toEqual([shared.body, shared.headers.etag, shared.headers['x-total-count']]);
    expect((await poll('/api/exchange-requests', eve, String(first.headers.etag))).statusCode).toBe(304);
    expect([exchange.asked(), listed]).toEqual([asked, built]);
    // A new user in a block is given their own list.
    withBlocks.add(6);
    await blockChanged(6);
    const fay = sessionCookieOf(await login(gateway, 'fay@example.com'))!;
    const own = await poll('/api/exchange-requests', fay);
    expect(ExchangeRequestList.parse(own.json()).every((r) => r.userId !== 9)).toBe(true);
    expect(own.headers.etag).not.toBe(shared.headers.etag);
    expect(listed).toBe(built + 1);
  });

  it('answers a user\'s first poll of their own count (no ETag: a new tab) from what it kept, until their version changes', async () => {
    unread[1] = 5;
    await serviceVersions(versions, 'notification', logger).bump([NotificationVersions.unread(1)]);
    const fetched = await poll('/api/notifications/count', ana);
    expect(NotificationCount.parse(fetched.json())).toEqual({ count: 5 });
    const asked = notification.asked();
    // Another tab's first poll: the same answer, same ETag, from the gateway.
    const newTab = await poll('/api/notifications/count', ana);
    expect([newTab.statusCode, NotificationCount.parse(newTab.json()), newTab.headers.etag]).toEqual([200, { count: 5 }, fetched.headers.etag]);
    expect(notification.asked()).toBe(asked);
    // Ben's first poll is never Ana's answer (his own, kept since his earlier poll).
    const forBen = await poll('/api/notifications/count', ben);
    expect(NotificationCount.parse(forBen.json())).toEqual({ count: 0 });
    expect(forBen.headers.etag).not.toBe(fetched.headers.etag);
    // Ana marks everything read in a tab: the service bumps her version, and her next first poll asks it again.
    unread[1] = 0;
    await serviceVersions(versions, 'notification', logger).bump([NotificationVersions.unread(1)]);
    expect(NotificationCount.parse((await poll('/api/notifications/count', ana)).json())).toEqual({ count: 0 });
    expect(notification.asked()).toBe(asked + 1);
  });

  it('asks the service once for the first polls of users arriving together, and keeps both their count and their list', async () => {
    Object.assign(users, { 'gil@example.com': { id: 7, role: 'user' }, 'hal@example.com': { id: 8, role: 'user' }, 'ivy@example.com': { id: 11, role: 'user' } });
    Object.assign(unread, { 7: 1, 8: 2, 11: 3 });
    const cookies = await Promise.all(['gil', 'hal', 'ivy'].map(async (name) => sessionCookieOf(await login(gateway, `${name}@example.com`))!));
    const [asked, before] = [notification.asked(), batches.length];
    const counts = await Promise.all(cookies.map((cookie) => poll('/api/notifications/count', cookie)));
    expect(counts.map((res) => NotificationCount.parse(res.json()).count)).toEqual([1, 2, 3]);
    expect(notification.asked()).toBe(asked + 1);
    expect(batches.slice(before)).toEqual([[7, 8, 11]]);
    // Their lists came with the same call: the app's first poll of the bell is answered here, with its ETag.
    for (const cookie of cookies) {
      const list = await poll(`/api/notifications?limit=${NOTIFICATIONS_SHOWN}`, cookie);
      expect([list.statusCode, NotificationList.parse(list.json()), list.headers['x-total-count']]).toEqual([200, [], '0']);
      expect((await poll(`/api/notifications?limit=${NOTIFICATIONS_SHOWN}`, cookie, String(list.headers.etag))).statusCode).toBe(304);
    }
    expect(notification.asked()).toBe(asked + 1);
    // Another page is the service's to answer.
    expect((await poll('/api/notifications?limit=5', cookies[0]!)).statusCode).toBe(200);
    expect(notification.asked()).toBe(asked + 2);
    // A change to one of them: their next first poll is batched again, with the new count.
    unread[8] = 0;
    await serviceVersions(versions, 'notification', logger).bump([NotificationVersions.unread(8)]);
    expect(NotificationCount.parse((await poll('/api/notifications/count', cookies[1]!)).json())).toEqual({ count: 0 });
    expect(batches.slice(before)).toEqual([[7, 8, 11], [8]]);
  });

  it('sheds a first poll whose batch is slower than a poll may wait, and serves the next one from what that batch kept', async () => {
    users['jo@example.com'] = { id: 12, role: 'user' };
    unread[12] = 4;
    const jo = sessionCookieOf(await login(gateway, 'jo@example.com'))!;
    const [asked, before, answered] = [notification.asked(), batches.length, batchesAnswered];
    batchMs = 1_500;
    try {
      const late = await poll('/api/notifications/count', jo);
      expect(late.statusCode).toBe(503);
      expect(Number(late.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(ErrorBody.parse(late.json())).toEqual({ code: 'service_unavailable', message: 'Puente is very busy right now. Please try again in a few seconds.' });
      // The batch goes on; once it is in, the poll after the Retry-After is answered here, from what it brought.
      await vi.waitFor(() => expect(batchesAnswered).toBe(answered + 1), { timeout: 5_000 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const next = await poll('/api/notifications/count', jo);
      expect([next.statusCode, NotificationCount.parse(next.json())]).toEqual([200, { count: 4 }]);
      expect(batches.slice(before)).toEqual([[12]]);
      expect(notification.asked()).toBe(asked + 1);
    } finally {
      batchMs = 0;
    }
  });

  it('keeps two gateways right: what one kept is no longer served once the other saw a change', async () => {
    const other = await buildTestGateway({ serviceUrls: { identity: identity.url, notification: notification.url }, versions });
    try {
      const anaThere = sessionCookieOf(await login(other, 'ana@example.com'))!;
      const pollThere = () => other.inject({ method: 'GET', url: '/api/notifications/count', headers: { cookie: anaThere } });
      unread[1] = 2;
      await serviceVersions(versions, 'notification', logger).bump([NotificationVersions.unread(1)]);
      expect(NotificationCount.parse((await poll('/api/notifications/count', ana)).json())).toEqual({ count: 2 });
      expect(NotificationCount.parse((await pollThere()).json())).toEqual({ count: 2 });
      // Read on the other gateway's tab; the notification service bumps the version both read.
      unread[1] = 0;
      await serviceVersions(versions, 'notification', logger).bump([NotificationVersions.unread(1)]);
      expect(NotificationCount.parse((await poll('/api/notifications/count', ana)).json())).toEqual({ count: 0 });
      expect(NotificationCount.parse((await pollThere()).json())).toEqual({ count: 0 });
    } finally {
      await other.close();
    }
  });

  it('asks the service of a visitor\'s poll (no session, no versions): 401 as before', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/exchange-requests' });
    expect(res.statusCode).toBe(401);
  });
});

describe('polled reads at the gateway while the kept keys are not all set (a store that lost them)', () => {
  const store = new MemoryVersionStore();
  let identity: FakeUpstream;
  let exchange: Awaited<ReturnType<typeof pollingService>>;
  let gateway: FastifyInstance;
  let ana: string;
  /** Whether the fake market filters Ana's list (a block the store has lost the key of). */
  let anaInBlock = true;

  beforeAll(async () => {
    identity = await startFakeService('identity');
    exchange = await pollingService('exchange', (app) => serve(app, Routes.exchange.requests, async (req, reply) => {
      if (anaInBlock) return [];
      reply.header(POLL_AUDIENCE_HEADER, 'everyone');
      if (await answeredNotModified(req, reply, app.versions, Routes.exchange.requests.polled.keys())) return reply;
      return [request(1)];
    }), store);
    gateway = await buildTestGateway({ serviceUrls: { identity: identity.url, exchange: exchange.url }, versions: store });
    ana = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([identity?.close(), exchange?.app.close()]);
  });

  const poll = (etag?: string) => gateway.inject({ method: 'GET', url: '/api/exchange-requests', headers: { cookie: ana, ...(etag ? { 'if-none-match': etag } : {}) } });

  it('asks the service of every poll of a viewer without a version, whatever it said, until the mark says all are set', async () => {
    expect(ExchangeRequestList.parse((await poll()).json())).toEqual([]); // her own list, filtered by the service
    anaInBlock = false;
    const asked = exchange.asked();
    const first = await poll();
    expect(ExchangeRequestList.parse(first.json())).toEqual([request(1)]);
    expect((await poll(String(first.headers.etag))).statusCode).toBe(304); // by the service: 'everyone' is not kept without a version
    expect(exchange.asked()).toBe(asked + 2);
    await serviceVersions(store, 'exchange', logger).bump([KEPT_KEYS_SET]);
    expect((await poll(String(first.headers.etag))).statusCode).toBe(304);
    expect(exchange.asked()).toBe(asked + 2);
  });
});
