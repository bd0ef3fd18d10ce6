/**
 * Changes announced on the live channel: a bump of the versions behind a user's polled routes reaches that user's
 * sockets at once as `{ type: 'versions', routes }`, on every gateway; the market's reaches every socket; nobody
 * hears another user's. With Redis, a gateway that heard a version answers the polls carrying it 304 by itself,
 * without asking Redis or the service.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import {
  ExchangeRequestList, ExchangeVersions, LiveMessage, NotificationVersions, POLL_AUDIENCE_HEADER, Routes, type ExchangeRequest, type ServiceName,
} from '@puente/contracts';
import {
  answeredNotModified, createHttpApp, MemoryVersionStore, pollEtag, RedisVersionStore, requireUser, serve, serviceVersions, type VersionStore,
} from '@puente/platform';
import { testAuth } from '@puente/platform/testing';
import { describeWithInfra, startRedis, type RedisServer } from '@puente/testkit';
import { MemorySessionStore } from './sessions/store.ts';
import { buildTestGateway, login, logger, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

interface Socket {
  socket: WebSocket;
  /** The live messages received so far, as the contract reads them. */
  heard: LiveMessage[];
}

async function openSocket(gateway: FastifyInstance, cookie: string): Promise<Socket> {
  const port = (gateway.server.address() as { port: number }).port;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie, origin: `http://127.0.0.1:${port}` } });
  const heard: LiveMessage[] = [];
  socket.on('message', (data) => heard.push(LiveMessage.parse(JSON.parse(String(data)))));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, heard };
}

/** The routes each announcement named, in the order heard. */
const announced = (s: Socket) => s.heard.flatMap((m) => (m.type === 'versions' ? [[...m.routes].sort()] : []));

const marketPath = Routes.exchange.requests.path;
const count = Routes.notification.count.path;
const notifications = Routes.notification.list.path;

describe('changes announced on the live channel (one version store, two gateways)', () => {
  const versions = new MemoryVersionStore();
  const sessions = new MemorySessionStore();
  const sockets: Socket[] = [];
  let identity: FakeUpstream;
  let one: FastifyInstance;
  let two: FastifyInstance;
  let ana: string; // user 1
  let ben: string; // user 2
  const open = async (gateway: FastifyInstance, cookie: string) => {
    const s = await openSocket(gateway, cookie);
    sockets.push(s);
    return s;
  };
  const bump = (service: ServiceName, ...keys: string[]) => serviceVersions(versions, service, logger).bump(keys);

  beforeAll(async () => {
    identity = await startFakeService('identity');
    const options = { serviceUrls: { identity: identity.url }, versions, sessionStore: sessions };
    [one, two] = await Promise.all([buildTestGateway(options), buildTestGateway(options)]);
    await Promise.all([one.listen({ host: '127.0.0.1', port: 0 }), two.listen({ host: '127.0.0.1', port: 0 })]);
    ana = sessionCookieOf(await login(one, 'ana@example.com'))!;
    ben = sessionCookieOf(await login(one, 'ben@example.com'))!;
  });
  afterAll(async () => {
    for (const s of sockets) s.socket.terminate();
    await Promise.all([one?.close(), two?.close()]);
    await sessions.close();
    await identity?.close();
  });

  it('tells every socket of a user, on both gateways, which of their polled routes changed, and tells nobody else', async () => {
    const anaOnOne = await open(one, ana);
    const anaOnTwo = await open(two, ana);
    const benOnTwo = await open(two, ben);
    await bump('notification', NotificationVersions.list(1), NotificationVersions.unread(1));
    for (const s of [anaOnOne, anaOnTwo]) await vi.waitFor(() => expect(announced(s)).toEqual([[notifications, count].sort()]));
    await bump('exchange', ExchangeVersions.ownRequests(2));
    await vi.waitFor(() => expect(announced(benOnTwo)).toEqual([[Routes.exchange.myRequests.path]]));
    // Each heard only their own: Ana nothing of Ben's requests, Ben nothing of Ana's notifications.
    expect(announced(anaOnOne)).toHaveLength(1);
    expect(announced(anaOnTwo)).toHaveLength(1);
  });

  it("tells every socket of every user of a change of the market, and a user of a change of what the market hides from them", async () => {
    const anaSocket = await open(one, ana);
    const benSocket = await open(two, ben);
    await bump('exchange', ExchangeVersions.market);
    for (const s of [anaSocket, benSocket]) await vi.waitFor(() => expect(announced(s)).toEqual([[marketPath]]));
    await bump('exchange', ExchangeVersions.viewer(2)); // Ben blocked someone: his market changed, nobody else's
    await vi.waitFor(() => expect(announced(benSocket)).toEqual([[marketPath], [marketPath]]));
    await bump('exchange', ExchangeVersions.ownMatches(1));
    await vi.waitFor(() => expect(announced(anaSocket)).toEqual([[marketPath], [Routes.exchange.matches.path]]));
    expect(announced(benSocket)).toHaveLength(2);
  });

  it('goes on telling a user whose other socket closed, and tells their new socket after all had closed', async () => {
    const closing = await open(one, ana);
    const staying = await open(two, ana);
    const close = async (s: Socket) => {
      s.socket.close();
      await vi.waitFor(() => expect(s.socket.readyState).toBe(WebSocket.CLOSED));
    };
    await close(closing);
    await bump('notification', NotificationVersions.unread(1));
    await vi.waitFor(() => expect(announced(staying)).toEqual([[count]]));
    for (const s of sockets) await close(s);
    const again = await open(one, ana);
    await bump('notification', NotificationVersions.unread(1));
    await vi.waitFor(() => expect(announced(again)).toEqual([[count]]));
    expect(announced(closing)).toEqual([]);
  });
});

/**
 * The two services of polled routes here, on versions in Redis: notification answers the unread count, exchange the
 * market (as that service does: the shared list, saying so, 304 while unchanged); `asked` counts what reached them.
 */
async function pollingServices(store: VersionStore, market: () => ExchangeRequest[]) {
  let asked = 0;
  const start = async (name: 'notification' | 'exchange', register: (app: FastifyInstance) => void) => {
    const app = createHttpApp({ logger, auth: testAuth(name) });
    app.decorate('versions', serviceVersions(store, name, logger));
    app.addHook('onRequest', async () => { asked++; });
    register(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return app;
  };
  const apps = [
    await start('notification', (app) => serve(app, Routes.notification.count, async (request) => ({ count: requireUser(request).userId }))),
    await start('exchange', (app) => serve(app, Routes.exchange.requests, async (request, reply) => {
      reply.header(POLL_AUDIENCE_HEADER, 'everyone');
      if (await answeredNotModified(request, reply, app.versions, Routes.exchange.requests.polled.keys())) return reply;
      return market();
    })),
  ];
  const urlOf = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return {
    urls: { notification: urlOf(apps[0]!), exchange: urlOf(apps[1]!) },
    asked: () => asked,
    close: () => Promise.all(apps.map((app) => app.close())),
  };
}

const requestOf = (id: number): ExchangeRequest => ({
  id, userId: 9, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275, status: 'open', createdAt: '2026-11-25T10:00:00.000Z',
  user: { firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, trustRating: null, transactionCount: 0, completionRate: null, averageCompletionMinutes: null, memberSince: null },
});

describeWithInfra(['redis'], 'changes announced through Redis', () => {
  let redis: RedisServer;
  let client: Redis;
  let identity: FakeUpstream;
  let services: Awaited<ReturnType<typeof pollingServices>>;
  let offered: ExchangeRequest[] = [requestOf(1)];
  let gateways: FastifyInstance[] = [];
  const sessions = new MemorySessionStore();
  const sockets: Socket[] = [];
  let ana: string;
  let ben: string;
  /** A service's bumps, as any of its instances makes them. */
  const bump = (service: ServiceName, ...keys: string[]) => serviceVersions(new RedisVersionStore(client), service, logger).bump(keys);
  const getsSoFar = async () => Number(/cmdstat_get:calls=(\d+)/.exec(await client.info('commandstats'))?.[1] ?? 0);

  beforeAll(async () => {
    [redis, identity] = await Promise.all([startRedis(), startFakeService('identity')]);
    client = new Redis(redis.url);
    services = await pollingServices(new RedisVersionStore(client), () => offered);
    const options = { serviceUrls: { identity: identity.url, ...services.urls }, redisUrl: redis.url, sessionStore: sessions };
    gateways = await Promise.all([buildTestGateway(options), buildTestGateway(options)]);
    await Promise.all(gateways.map((g) => g.listen({ host: '127.0.0.1', port: 0 })));
    ana = sessionCookieOf(await login(gateways[0]!, 'ana@example.com'))!;
    ben = sessionCookieOf(await login(gateways[0]!, 'ben@example.com'))!;
  }, 30_000);
  afterAll(async () => {
    for (const s of sockets) s.socket.terminate();
    await Promise.all(gateways.map((g) => g.close()));
    await Promise.all([services?.close(), identity?.close(), sessions.close()]);
    await client?.quit();
    await redis?.stop();
  });

  it('reaches the user\'s sockets on every gateway, and answers a poll of the announced version 304 without asking Redis or the service', async () => {
    const [one, two] = gateways as [FastifyInstance, FastifyInstance];
    const anaOnOne = await openSocket(one, ana);
    const anaOnTwo = await openSocket(two, ana);
    const benOnOne = await openSocket(one, ben);
    sockets.push(anaOnOne, anaOnTwo, benOnOne);
    const poll = (etag?: string) => two.inject({ method: 'GET', url: count, headers: { cookie: ana, ...(etag ? { 'if-none-match': etag } : {}) } });
    // Until the gateway listens to Redis and remembers what it read: an unchanged poll asks nobody.
    const first = await poll();
    expect(first.statusCode).toBe(200);
    await expect.poll(async () => {
      const before = await getsSoFar();
      const again = await poll(String(first.headers.etag));
      return again.statusCode === 304 && (await getsSoFar()) === before;
    }, { timeout: 5_000, interval: 50 }).toBe(true);

    await bump('notification', NotificationVersions.unread(1));
    for (const s of [anaOnOne, anaOnTwo]) await vi.waitFor(() => expect(announced(s)).toEqual([[count]]));
    expect(announced(benOnOne)).toEqual([]);
    // The version the bump set, as the service makes its ETag of it: the gateway heard it, and answers it alone.
    const [version] = await new RedisVersionStore(client).read([`notification:${NotificationVersions.unread(1)}`]);
    const asked = services.asked();
    const gets = await getsSoFar();
    const fresh = await poll(pollEtag([version!], '/notifications/count'));
    expect(fresh.statusCode).toBe(304);
    expect(await getsSoFar()).toBe(gets);
    expect(services.asked()).toBe(asked);
    // The browser's old ETag is no longer current: the poll goes to the service, which answers the count.
    expect((await poll(String(first.headers.etag))).statusCode).toBe(200);
  }, 20_000);

  it('gives the market a new ETag at every change, as soon as a socket heard of it (when the app polls)', async () => {
    const gateway = gateways[1]!;
    const socket = await openSocket(gateway, ben);
    sockets.push(socket);
    const poll = (etag: string) => gateway.inject({ method: 'GET', url: marketPath, headers: { cookie: ben, 'if-none-match': etag } });
    let etag = String((await gateway.inject({ method: 'GET', url: marketPath, headers: { cookie: ben } })).headers.etag);
    const seen = new Set([etag]);
    for (let change = 2; change <= 11; change++) {
      offered = [requestOf(change), ...offered];
      await bump('exchange', ExchangeVersions.market);
      await vi.waitFor(() => expect(announced(socket)).toHaveLength(change - 1));
      // As the app does on the announcement: its poll, with the ETag it holds, brings the new list.
      const after = await poll(etag);
      expect(after.statusCode).toBe(200);
      expect(ExchangeRequestList.parse(after.json())[0]!.id).toBe(change);
      etag = String(after.headers.etag);
      expect(seen.has(etag)).toBe(false);
      seen.add(etag);
      expect((await poll(etag)).statusCode).toBe(304);
    }
  }, 20_000);
});
