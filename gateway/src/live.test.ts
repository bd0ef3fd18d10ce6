import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { ChatLiveMessage, ErrorBody, NewNotificationMessage, topicOf } from '@puente/contracts';
import { InProcessBus, makeEvent, type EventBus } from '@puente/platform';
import { KafkaBus } from '@puente/platform/kafka';
import { describeWithInfra, startKafka, startRedis, type KafkaCluster, type RedisServer } from '@puente/testkit';
import { gatewayOptionsFrom, gatewaySettings } from './settings.ts';
import { TRY_AGAIN_LATER_CLOSE_CODE } from './live.ts';
import { MemorySessionStore } from './sessions/store.ts';
import { buildTestGateway, login, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

interface Client {
  socket: WebSocket;
  messages: unknown[];
  closed: Promise<number>;
  /** Resolves with the next message (or one already received and not yet taken). */
  next(timeoutMs?: number): Promise<unknown>;
}

const urlOf = (gateway: FastifyInstance) => `ws://127.0.0.1:${(gateway.server.address() as { port: number }).port}/ws`;

function connect(gateway: FastifyInstance, cookie?: string, origin = 'http://127.0.0.1'): Promise<Client> {
  const port = (gateway.server.address() as { port: number }).port;
  const socket = new WebSocket(urlOf(gateway), { headers: { ...(cookie ? { cookie } : {}), origin: origin.replace('127.0.0.1', `127.0.0.1:${port}`) } });
  const messages: unknown[] = [];
  let taken = 0;
  socket.on('message', (data) => { messages.push(JSON.parse(String(data))); });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const client: Client = {
    socket, messages, closed,
    async next(timeoutMs = 5_000) {
      await vi.waitFor(() => { if (messages.length <= taken) throw new Error('no message'); }, { timeout: timeoutMs, interval: 50 });
      return messages[taken++];
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

describe('live channel (/ws) across two gateway instances', () => {
  const bus = new InProcessBus();
  const store = new MemorySessionStore();
  let identity: FakeUpstream;
  let one: FastifyInstance;
  let two: FastifyInstance;
  let ana: string; // user 1
  let ben: string; // user 2
  const clients: Client[] = [];
  const open = async (gateway: FastifyInstance, cookie?: string) => {
    const c = await connect(gateway, cookie);
    clients.push(c);
    return c;
  };
  const publish = (...events: ReturnType<typeof makeEvent>[]) => bus.publish(topicOf('notification'), events);

  beforeAll(async () => {
    identity = await startFakeService('identity');
    const options = { serviceUrls: { identity: identity.url }, bus, sessionStore: store, livePingIntervalMs: 100 };
    [one, two] = await Promise.all([buildTestGateway(options), buildTestGateway(options)]);
    await Promise.all([one.listen({ host: '127.0.0.1', port: 0 }), two.listen({ host: '127.0.0.1', port: 0 })]);
    ana = sessionCookieOf(await login(one, 'ana@example.com'))!;
    ben = sessionCookieOf(await login(two, 'ben@example.com'))!;
  });
  afterAll(async () => {
    for (const c of clients) c.socket.terminate();
    await Promise.all([one?.close(), two?.close()]);
    await bus.close();
    await store.close();
    await identity?.close();
  });

  it('delivers a notification event to every socket of its user, on both instances, and to nobody else', async () => {
    const anaOnOne = await open(one, ana);
    const anaOnTwo = await open(two, ana);
    const benOnTwo = await open(two, ben);

    const terms = { amount: '500.00', fromCurrency: 'GBP', toCurrency: 'CLP' } as const; // what the web words it from
    await publish(makeEvent('notificationCreated', 41, { notificationId: 41, userId: 1, type: 'exchange_match', content: 'Someone matched your request', params: terms, referenceId: 7 }));
    for (const c of [anaOnOne, anaOnTwo]) {
      const message = await c.next();
      expect(NewNotificationMessage.parse(message)).toEqual({
        type: 'new_notification',
        notification: { id: 41, type: 'exchange_match', content: 'Someone matched your request', params: terms, read: false, referenceId: 7, createdAt: expect.any(String) },
      });
    }

    // Ben's first message is his own event: he never got Ana's. And Ana's next is hers, not Ben's.
    await publish(makeEvent('matchAnnounced', 9, { userId: 2, matchId: 9, requestId: 3 }));
    expect(await benOnTwo.next()).toEqual({ type: 'match_success', data: { matchId: 9, requestId: 3 } });
    await publish(makeEvent('matchAnnounced', 10, { userId: 1, matchId: 10, requestId: 4 }));
    for (const c of [anaOnOne, anaOnTwo]) expect(await c.next()).toEqual({ type: 'match_success', data: { matchId: 10, requestId: 4 } });
    expect(benOnTwo.messages).toHaveLength(1);
    expect(anaOnOne.messages).toHaveLength(2);
    expect(anaOnTwo.messages).toHaveLength(2);

    // An event published again (a relay restarted between publishing and marking its rows) is delivered once.
    const once = makeEvent('notificationCreated', 42, { notificationId: 42, userId: 2, type: 'rating', content: 'Ana rated you', referenceId: 9 });
    await publish(once);
    await publish(once, makeEvent('matchAnnounced', 11, { userId: 2, matchId: 11, requestId: 5 }));
    expect(NewNotificationMessage.parse(await benOnTwo.next()).notification.id).toBe(42);
    expect(await benOnTwo.next()).toEqual({ type: 'match_success', data: { matchId: 11, requestId: 5 } });
    expect(benOnTwo.messages).toHaveLength(3);
  }, 15_000); // above next()'s 5 s

  it('delivers a chat message to the two parties of its match only, once however often the event comes', async () => {
    const dora = sessionCookieOf(await login(one, 'dora@example.com'))!;
    const [anaOnOne, doraOnTwo, benOnTwo] = [await open(one, ana), await open(two, dora), await open(two, ben)];
    const message = {
      id: 70, matchId: 12, kind: 'text', authorId: 4, body: 'Sent the pesos', attachment: null, event: null, subjectId: null, createdAt: new Date().toISOString(),
    } as const;
    const posted = makeEvent('chatMessagePosted', 12, { matchId: 12, requestId: 6, requesterId: 1, matcherId: 4, message });
    await bus.publish(topicOf('exchange'), [posted]);
    await bus.publish(topicOf('exchange'), [posted]);
    for (const c of [anaOnOne, doraOnTwo]) expect(ChatLiveMessage.parse(await c.next())).toEqual({ type: 'chat_message', message });
    // Ben (no party) got nothing, and nobody got the repeat.
    await publish(makeEvent('matchAnnounced', 13, { userId: 2, matchId: 13, requestId: 7 }));
    expect(await benOnTwo.next()).toEqual({ type: 'match_success', data: { matchId: 13, requestId: 7 } });
    expect([anaOnOne.messages.length, doraOnTwo.messages.length, benOnTwo.messages.length]).toEqual([1, 1, 1]);
  }, 15_000);

  it('refuses the upgrade without a valid session, or from another site', async () => {
    await expect(connect(one)).rejects.toThrow('refused: 401');
    await expect(connect(one, 'puente_session=forged')).rejects.toThrow('refused: 401');
    await expect(connect(one, ana, 'https://evil.example')).rejects.toThrow('refused: 403');
  });

  it('closes a socket when its session ends: at once on the instance that logged out, at the next ping elsewhere', async () => {
    const cookie = sessionCookieOf(await login(one, 'ana@example.com'))!;
    const here = await open(one, cookie);
    const there = await open(two, cookie);
    const other = await open(one, ana); // another session of the same user stays open
    const out = await one.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin: 'http://localhost' } });
    expect(out.statusCode).toBe(200);
    expect(await here.closed).toBe(4401);
    expect(await there.closed).toBe(4401);
    await expect(connect(two, cookie)).rejects.toThrow('refused: 401');
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
  });
});

/** A handshake's refusal before the upgrade: its status, Retry-After and JSON body. */
function refusalOf(gateway: FastifyInstance, cookie: string): Promise<{ status: number; retryAfter: unknown; body: unknown }> {
  const port = (gateway.server.address() as { port: number }).port;
  const socket = new WebSocket(urlOf(gateway), { headers: { cookie, origin: `http://127.0.0.1:${port}` } });
  return new Promise((resolve, reject) => {
    socket.once('open', () => reject(new Error('upgraded')));
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    socket.once('error', () => {}); // the refusal, seen above
  });
}

describe('live channel caps: sockets per user and in all, on one instance', () => {
  let identity: FakeUpstream;
  let gateway: FastifyInstance;
  const sockets: WebSocket[] = [];
  const cookies: Record<string, string> = {};
  const open = async (cookie: string | undefined) => {
    const c = await connect(gateway, cookie);
    sockets.push(c.socket);
    return c;
  };

  beforeAll(async () => {
    identity = await startFakeService('identity');
    // The production cap per user (10); the cap in all lowered from 50,000 to 12 so that a test can reach it.
    gateway = await buildTestGateway({ serviceUrls: { identity: identity.url }, liveLimits: { perUser: 10, total: 12 } });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    for (const email of ['ana@example.com', 'ben@example.com', 'dora@example.com']) cookies[email] = sessionCookieOf(await login(gateway, email))!;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await gateway?.close();
    await identity?.close();
  });

  it('reads the caps from the settings: 10 per user and 50,000 in all unless LIVE_SOCKETS_PER_USER and LIVE_SOCKETS_MAX say', () => {
    expect(gatewayOptionsFrom(gatewaySettings.parse({})).liveLimits).toEqual({ perUser: 10, total: 50_000 });
    expect(gatewayOptionsFrom(gatewaySettings.parse({ LIVE_SOCKETS_PER_USER: '3', LIVE_SOCKETS_MAX: '' })).liveLimits).toEqual({ perUser: 3, total: 50_000 });
    for (const bad of ['0', '2.5', 'many']) expect(gatewaySettings.safeParse({ LIVE_SOCKETS_MAX: bad }).success).toBe(false);
  });

  it('opens 10 sockets of one user of 15 asked at once, refusing the others (429 before the upgrade, or closed at once)', async () => {
    const port = (gateway.server.address() as { port: number }).port;
    const attempts = Array.from({ length: 15 }, () => new WebSocket(urlOf(gateway), {
      headers: { cookie: cookies['ana@example.com']!, origin: `http://127.0.0.1:${port}` },
    }));
    sockets.push(...attempts);
    const outcomes = await Promise.all(attempts.map((socket) => new Promise<string>((resolve) => {
      socket.once('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
      socket.once('close', (code) => resolve(`closed ${code}`));
      socket.once('error', () => {});
      // Open and still open a moment later: kept (one let in past the cap in a race is closed at once).
      socket.once('open', () => setTimeout(() => { if (socket.readyState === WebSocket.OPEN) resolve('open'); }, 300));
    })));
    expect(outcomes.filter((o) => o === 'open')).toHaveLength(10);
    expect(outcomes.filter((o) => o !== 'open').every((o) => o === 'refused 429' || o === `closed ${TRY_AGAIN_LATER_CLOSE_CODE}`)).toBe(true);

    const refused = await refusalOf(gateway, cookies['ana@example.com']!);
    expect([refused.status, refused.retryAfter]).toEqual([429, '60']);
    expect(ErrorBody.parse(refused.body)).toEqual({
      message: 'Too many live connections are open for this account (at most 10). Close another tab or window, or try again in 1 minute.',
      code: 'rate_limited',
    });
  });

  it('lets other users in up to the cap in all, then refuses everyone until a socket closes', async () => {
    const ben = [await open(cookies['ben@example.com']), await open(cookies['ben@example.com'])];
    const busy = await refusalOf(gateway, cookies['dora@example.com']!);
    expect([busy.status, busy.retryAfter]).toEqual([429, '60']);
    expect(ErrorBody.parse(busy.body)).toEqual({ message: 'The live channel is busy right now. Please try again in 1 minute.', code: 'rate_limited' });
    // A visitor hears it too: a full instance does not ask the session store.
    expect((await refusalOf(gateway, 'puente_session=forged')).status).toBe(429);

    ben[0]!.socket.close();
    await ben[0]!.closed;
    await vi.waitFor(() => open(cookies['dora@example.com']), { timeout: 5_000, interval: 50 });
  });
});

describeWithInfra(['kafka', 'redis'], 'live channel across two gateway processes\' worth of wiring (KafkaBus each, Redis sessions)', () => {
  let kafka: KafkaCluster;
  let redis: RedisServer;
  let identity: FakeUpstream;
  let publisher: EventBus;
  const buses: EventBus[] = [];
  const gateways: FastifyInstance[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    [kafka, redis, identity] = await Promise.all([startKafka(), startRedis(), startFakeService('identity')]);
    const kafkaBus = () => new KafkaBus({ brokers: kafka.brokers, clientId: 'gateway-test', sessionTimeoutMs: 3_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 6_000 });
    publisher = kafkaBus();
    for (let i = 0; i < 2; i++) {
      const bus = kafkaBus();
      buses.push(bus);
      const gateway = await buildTestGateway({ serviceUrls: { identity: identity.url }, bus, redisUrl: redis.url });
      await gateway.listen({ host: '127.0.0.1', port: 0 });
      gateways.push(gateway);
    }
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.socket.terminate();
    await Promise.all(gateways.map((g) => g.close()));
    await Promise.all([...buses, publisher].filter(Boolean).map((b) => b.close()));
    await identity?.close();
    await Promise.all([kafka?.stop(), redis?.stop()]);
  });

  it('delivers to the right user\'s sockets on both instances', async () => {
    const [one, two] = gateways as [FastifyInstance, FastifyInstance];
    const ana = sessionCookieOf(await login(one, 'ana@example.com'))!;
    const ben = sessionCookieOf(await login(two, 'ben@example.com'))!;
    const anaSockets = [await connect(one, ana), await connect(two, ana)];
    const benSocket = await connect(one, ben);
    clients.push(...anaSockets, benSocket);
    const publish = (event: ReturnType<typeof makeEvent>) => publisher.publish(topicOf('notification'), [event]);

    // A 'latest' group takes its position at its first fetch, a moment after it joined: announce until both
    // instances deliver, then check who got what.
    let n = 0;
    await vi.waitFor(async () => {
      if (anaSockets.every((c) => c.messages.length > 0)) return;
      await publish(makeEvent('notificationCreated', ++n, { notificationId: n, userId: 1, type: 'rating', content: `warm-up ${n}`, referenceId: null }));
      throw new Error(`after ${n} warm-up notifications, sockets with none: ${anaSockets.filter((c) => c.messages.length === 0).length}`);
    }, { timeout: 60_000, interval: 500 });

    await publish(makeEvent('matchAnnounced', 77, { userId: 2, matchId: 77, requestId: 5 }));
    await publish(makeEvent('notificationCreated', 500, { notificationId: 500, userId: 1, type: 'exchange_confirmed', content: 'Confirmed', referenceId: 77 }));
    expect(await benSocket.next(30_000)).toEqual({ type: 'match_success', data: { matchId: 77, requestId: 5 } });
    for (const c of anaSockets) {
      await expect.poll(() => c.messages.map((m) => (m as { notification?: { id: number } }).notification?.id), { timeout: 30_000, interval: 100 })
        .toContain(500);
      expect(c.messages.every((m) => (m as { type: string }).type === 'new_notification')).toBe(true);
      expect(NewNotificationMessage.parse(c.messages.at(-1)).notification).toEqual({
        id: 500, type: 'exchange_confirmed', content: 'Confirmed', params: null, read: false, referenceId: 77, createdAt: expect.any(String), // an event from before params
      });
    }
    expect(benSocket.messages).toHaveLength(1);
  }, 120_000);
});
