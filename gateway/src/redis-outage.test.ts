/**
 * The gateway through an outage of its session store and counters (Redis): sessions read lately keep working for
 * minutes, revocations take effect at once on every instance, quotas let calls through, the limits that guard a
 * credential refuse with 503, and while the store's breaker is open a failing call never touches the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { ErrorBody } from '@puente/contracts';
import { InProcessBus } from '@puente/platform';
import { describeWithInfra, startRedis, startTcpProxy, type RedisServer, type TcpProxy } from '@puente/testkit';
import { CachedSessionStore } from './sessions/cached-store.ts';
import { RedisSessionStore } from './sessions/redis-store.ts';
import { sessionIdHash } from './sessions/revocations.ts';
import { MemorySessionStore, type SessionRecord, type SessionStore } from './sessions/store.ts';
import { buildTestGateway, login, OWN_ORIGIN, PASSWORD, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

const MINUTE = 60_000;

/** A store that answers or fails, as told, and counts what it is asked. */
function flakyStore(): SessionStore & { down: boolean; asked: number; memory: MemorySessionStore } {
  const memory = new MemorySessionStore();
  const call = <T>(fn: () => Promise<T>): Promise<T> => {
    store.asked++;
    return store.down ? Promise.reject(new Error('connect ECONNREFUSED')) : fn();
  };
  const store = {
    down: false, asked: 0, memory,
    get: (id: string) => call(() => memory.get(id)),
    save: (id: string, record: SessionRecord) => call(() => memory.save(id, record)),
    delete: (id: string) => call(() => memory.delete(id)),
    deleteUserSessions: (userId: number, keep?: string) => call(() => memory.deleteUserSessions(userId, keep)),
    close: () => memory.close(),
  };
  return store;
}

describe('sessions through an outage of the store (cached, on a clock of the test\'s)', () => {
  // From the real time: the store under the cache checks expiry on the real clock (it once began on a fixed day, and
  // its sessions, a day long, expired under it the day after).
  let clock = Date.now();
  const now = () => clock;
  const ana = (grantedAt = clock - MINUTE): SessionRecord => ({ userId: 1, role: 'user', expiresAt: clock + 24 * 60 * MINUTE, grantedAt });

  it('a session read lately keeps working 6 minutes into the outage; past 10 minutes it needs the store again', async () => {
    const store = flakyStore();
    await store.save('seen', ana());
    const cached = new CachedSessionStore(store, { now });
    expect(await cached.get('seen')).toMatchObject({ userId: 1 });
    store.down = true;
    clock += 6 * MINUTE;
    expect(await cached.get('seen')).toMatchObject({ userId: 1 });
    clock += 5 * MINUTE;
    await expect(cached.get('seen')).rejects.toThrow();
  });

  it('a revocation during the outage ends the sessions at once here and on an instance that heard it, and reaches the store once it is back', async () => {
    const store = flakyStore();
    await store.save('kept', ana());
    await store.save('other', ana());
    await store.save('ben', { ...ana(), userId: 2 });
    const [here, elsewhere] = [new CachedSessionStore(store, { now, retryMs: 20 }), new CachedSessionStore(store, { now, retryMs: 20 })];
    for (const cached of [here, elsewhere]) for (const id of ['kept', 'other', 'ben']) await cached.get(id);
    store.down = true;
    expect(await here.deleteUserSessions(1, 'kept')).toEqual(['other']);
    // What identity's event tells every other instance: the time of the change and the kept session's hash.
    expect(elsewhere.revoke({ userId: 1, before: clock, keptHash: sessionIdHash('kept') })).toEqual(['other']);
    for (const cached of [here, elsewhere]) {
      expect([await cached.get('kept'), await cached.get('other'), await cached.get('ben')])
        .toEqual([expect.objectContaining({ userId: 1 }), undefined, expect.objectContaining({ userId: 2 })]);
    }
    store.down = false;
    await expect.poll(() => store.memory.get('other'), { timeout: 2_000, interval: 20 }).toBeUndefined();
    expect(await store.memory.get('kept')).toMatchObject({ userId: 1 });
    // A sign-in after the revocation is not ended by it.
    clock += 1;
    await here.save('later', ana(clock));
    expect(await elsewhere.get('later')).toMatchObject({ userId: 1 });
    await Promise.all([here.close(), elsewhere.close()]);
  });

  it('while the breaker is open, a failing call answers without asking the store', async () => {
    const store = flakyStore();
    const cached = new CachedSessionStore(store, { retryMs: 60_000 });
    store.down = true;
    await expect(cached.get('unseen')).rejects.toThrow('ECONNREFUSED');
    const asked = store.asked;
    const took: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      const failure = await cached.get('unseen').catch((err: unknown) => err);
      took.push(performance.now() - started);
      expect(failure).toEqual(new Error('the session store failed a moment ago: not asked again yet'));
    }
    took.sort((a, b) => a - b);
    console.log(`breaker open: 100 failing session reads answered without the store, median ${took[50]!.toFixed(3)} ms, slowest ${took[99]!.toFixed(3)} ms`);
    expect(store.asked).toBe(asked);
  });
});

describeWithInfra(['redis'], 'two gateway instances through a Redis outage', () => {
  let redis: RedisServer;
  let proxy: TcpProxy;
  let identity: FakeUpstream;
  let exchange: FakeUpstream;
  const bus = new InProcessBus();
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    [redis, identity, exchange] = await Promise.all([startRedis(), startFakeService('identity', { bus }), startFakeService('exchange')]);
    const { hostname, port } = new URL(redis.url);
    proxy = await startTcpProxy(hostname, Number(port));
    const options = { serviceUrls: { identity: identity.url, exchange: exchange.url }, redisUrl: `redis://${proxy.host}:${proxy.port}`, bus };
    [one, two] = await Promise.all([buildTestGateway(options), buildTestGateway(options)]);
    await Promise.all([one.ready(), two.ready()]);
  }, 60_000);
  afterAll(async () => {
    proxy?.resume();
    await Promise.all([one?.close(), two?.close()]);
    await Promise.all([identity?.close(), exchange?.close()]);
    await bus.close();
    await proxy?.close();
    await redis?.stop();
  });

  const whoAmI = (gateway: FastifyInstance, cookie: string) => gateway.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });
  const post = (gateway: FastifyInstance, url: string, cookie: string, payload: object = {}) =>
    gateway.inject({ method: 'POST', url, headers: { origin: OWN_ORIGIN, cookie, 'content-type': 'application/json' }, payload });
  const refused = (res: { statusCode: number; json(): unknown }) => [res.statusCode, ErrorBody.parse(res.json())];
  const unavailable = (what: string) => [503, { code: 'service_unavailable', message: `${what} is not available right now. Please try again in a minute.` }];
  const sessionIdOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;

  it('signed-in users go on, quotas let calls through, credentials get 503, and a revocation ends sessions at once on both instances', async () => {
    const [here, elsewhere, ben] = [
      sessionCookieOf(await login(one, 'ana@example.com'))!, sessionCookieOf(await login(two, 'ana@example.com'))!,
      sessionCookieOf(await login(one, 'ben@example.com'))!,
    ];
    const dora = [sessionCookieOf(await login(one, 'dora@example.com'))!, sessionCookieOf(await login(two, 'dora@example.com'))!];
    for (const gateway of [one, two]) for (const cookie of [here, elsewhere, ben, ...dora]) expect((await whoAmI(gateway, cookie)).statusCode).toBe(200);
    proxy.pause();
    try {
      const started = performance.now();
      expect((await whoAmI(one, here)).json()).toMatchObject({ userId: 1 });
      // A chat message: its quota lets it through uncounted.
      expect((await post(one, '/api/exchange-matches/5/messages', here, { content: 'still here' })).statusCode).toBe(200);
      expect(exchange.seen.at(-1)).toMatchObject({ method: 'POST', url: '/exchange-matches/5/messages' });
      // The limits that guard a credential refuse.
      expect(refused(await login(one, 'dora@example.com'))).toEqual(unavailable('Signing in'));
      expect(refused(await post(one, '/api/auth/change-password', here, { currentPassword: PASSWORD, newPassword: 'another one' })))
        .toEqual(unavailable('Checking your password'));
      const answeredMs = performance.now() - started;

      // A password reset (from the emailed link, limited by no counter) ends every session of the user.
      const reset = await post(one, '/api/auth/reset-password', here);
      expect(reset.statusCode).toBe(200);
      expect(sessionCookieOf(reset)).toBeUndefined();
      for (const gateway of [one, two]) {
        expect([(await whoAmI(gateway, here)).statusCode, (await whoAmI(gateway, elsewhere)).statusCode, (await whoAmI(gateway, ben)).statusCode])
          .toEqual([401, 401, 200]);
      }
      // Turning two-factor sign-in off cannot store its new session: 503, and no session of the user goes on.
      expect(refused(await post(one, '/api/auth/two-factor/disable', dora[0]!))).toEqual([503, expect.objectContaining({ code: 'service_unavailable' })]);
      for (const cookie of dora) expect((await whoAmI(one, cookie)).statusCode).toBe(401);
      console.log(`redis outage: a session check, a chat message and two refused credential calls answered in ${answeredMs.toFixed(0)} ms in all`);
    } finally {
      proxy.resume();
    }
    // The deletion waited for Redis: the ended sessions are gone from the store once it is back.
    const client = new Redis(redis.url);
    try {
      const store = new RedisSessionStore(client);
      await expect.poll(async () => [await store.get(sessionIdOf(here)), await store.get(sessionIdOf(elsewhere))], { timeout: 10_000, interval: 100 })
        .toEqual([undefined, undefined]);
      expect(await store.get(sessionIdOf(ben))).toMatchObject({ userId: 2 });
    } finally {
      await client.quit();
    }
  }, 30_000);
});
