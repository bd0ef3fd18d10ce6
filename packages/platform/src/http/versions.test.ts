/**
 * Versions behind polled routes: a store in memory (one process) and in Redis (every instance of a service), and the
 * conditional answer a route gives from them.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { keptKey } from '@puente/contracts';
import { describeWithInfra, startRedis, type RedisServer } from '@puente/testkit';
import { createLogger } from '../logger.ts';
import { createHttpApp } from './app.ts';
import {
  MemoryVersionStore, RedisVersionStore, TrackedRedisVersionStore, VERSION_TTL_SECONDS, answeredNotModified, serviceVersions, versionKeyOf,
  type VersionsBumped, type VersionStore,
} from './versions.ts';

/** What `store` announces from now on (each bump's keys and new versions), and a way to stop listening. */
function heard(store: VersionStore) {
  const bumps: VersionsBumped[] = [];
  const stop = store.watch!((bumped) => bumps.push(bumped));
  return { bumps, stop };
}

function storeSuite(make: () => VersionStore, other: () => VersionStore) {
  it('keeps a version until it is bumped, then gives a new one; keys are independent', async () => {
    const store = make();
    const [a1, b1] = await store.read(['a', 'b']);
    expect(a1).not.toBe(b1);
    expect(await store.read(['a', 'b'])).toEqual([a1, b1]);
    await store.bump(['a']);
    const [a2, b2] = await store.read(['a', 'b']);
    expect(a2).not.toBe(a1);
    expect(b2).toBe(b1);
  });

  it('gives a kept key no version until a bump sets one, which every reader then sees', async () => {
    const one = make();
    const two = other();
    const key = keptKey(`viewer:${Math.random()}`);
    expect(await one.read([key, key])).toEqual(['', '']);
    expect(await two.read([key])).toEqual(['']); // a read set nothing
    await two.bump([key]);
    const [set] = await one.read([key]);
    expect(set).not.toBe('');
    expect(await two.read([key])).toEqual([set]);
  });

  it('is the same version for every reader sharing the store, and a bump by one is seen by the other', async () => {
    const one = make();
    const two = other();
    const [first] = await one.read(['shared']);
    expect(await two.read(['shared'])).toEqual([first]);
    await two.bump(['shared']);
    const [after] = await one.read(['shared']);
    expect(after).not.toBe(first);
  });
}

describe('MemoryVersionStore', () => {
  const shared = new MemoryVersionStore();
  storeSuite(() => shared, () => shared);

  it('announces each bump to its watchers with the keys\' new versions (a service\'s keys under its name), until they stop', async () => {
    const store = new MemoryVersionStore();
    const gateway = heard(store);
    const other = heard(store);
    await store.read(['market']); // a read gives an unseen key a version: nothing changed, nothing announced
    await serviceVersions(store, 'notification', { warn: () => undefined }).bump(['notifications:7', 'unread:7']);
    const keys = [versionKeyOf('notification', 'notifications:7'), versionKeyOf('notification', 'unread:7')];
    expect(gateway.bumps).toEqual([{ keys, versions: await store.read(keys) }]);
    expect(other.bumps).toEqual(gateway.bumps);
    gateway.stop();
    await store.bump(['market']);
    expect(gateway.bumps).toHaveLength(1);
    expect(other.bumps.at(-1)).toEqual({ keys: ['market'], versions: await store.read(['market']) });
  });

  it('bumps even when a watcher fails on the announcement', async () => {
    const store = new MemoryVersionStore();
    const [before] = await store.read(['k']);
    store.watch((): void => { throw new Error('a watcher\'s bug'); });
    const after = heard(store);
    await store.bump(['k']);
    const [now] = await store.read(['k']);
    expect(now).not.toBe(before);
    expect(after.bumps).toEqual([{ keys: ['k'], versions: [now] }]);
  });

  it('forgets the oldest keys beyond its bound, and a forgotten key simply gets a new version', async () => {
    const store = new MemoryVersionStore(2);
    const [x] = await store.read(['x']);
    await store.read(['y', 'z']);
    const [again] = await store.read(['x']);
    expect(again).not.toBe(x);
  });

  it('never forgets a kept key, however many others come', async () => {
    const store = new MemoryVersionStore(2);
    await store.bump([keptKey('viewer:1')]);
    const [kept] = await store.read([keptKey('viewer:1')]);
    await store.read(['x', 'y', 'z']);
    expect(await store.read([keptKey('viewer:1')])).toEqual([kept]);
  });
});

describeWithInfra(['redis'], 'RedisVersionStore', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const client = () => {
    const c = new Redis(server.url);
    clients.push(c);
    return c;
  };
  beforeAll(async () => { server = await startRedis(); }, 30_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()));
    await server?.stop();
  });

  const prefix = `test:${Date.now()}:`;
  // Two clients: two instances of one service.
  storeSuite(() => new RedisVersionStore(client(), prefix), () => new RedisVersionStore(client(), prefix));

  describe('remembered in the process (client-side caching)', () => {
    const tracked: TrackedRedisVersionStore[] = [];
    const make = () => {
      const store = new TrackedRedisVersionStore(client(), prefix);
      tracked.push(store);
      return store;
    };
    afterAll(async () => { await Promise.all(tracked.map((s) => s.close())); });
    const getsSoFar = async () => Number(/cmdstat_get:calls=(\d+)/.exec(await client().info('commandstats'))?.[1] ?? 0);
    /** Until a read of `key` reaches Redis no more: tracking is on and the version is remembered. */
    const remembered = (store: VersionStore, key: string) => expect.poll(async () => {
      const before = await getsSoFar();
      await store.read([key]);
      return (await getsSoFar()) - before;
    }, { timeout: 5_000, interval: 20 }).toBe(0);

    it('reads an unchanged version without a round trip, and sees another instance\'s bump as soon as Redis tells', async () => {
      const one = make();
      const two = make();
      await remembered(one, 'tracked');
      const [first] = await one.read(['tracked']);
      const before = await getsSoFar();
      for (let i = 0; i < 20; i++) expect(await one.read(['tracked'])).toEqual([first]);
      expect(await getsSoFar()).toBe(before);
      expect(await two.read(['tracked'])).toEqual([first]);
      await two.bump(['tracked']);
      await expect.poll(async () => (await one.read(['tracked']))[0], { timeout: 2_000, interval: 10 }).not.toBe(first);
      expect(await one.read(['tracked'])).toEqual(await two.read(['tracked']));
    }, 15_000);

    it('remembers that a kept key has no version, and sees another instance set it as soon as Redis tells', async () => {
      const one = make();
      const two = make();
      const key = keptKey('viewer:tracked');
      await remembered(one, key);
      expect(await one.read([key])).toEqual(['']);
      await two.bump([key]);
      await expect.poll(async () => (await one.read([key]))[0], { timeout: 2_000, interval: 10 }).not.toBe('');
      expect(await one.read([key])).toEqual(await new RedisVersionStore(client(), prefix).read([key]));
    });

    it('forgets what it remembered when its listening connection drops, and remembers again once it is back', async () => {
      const one = make();
      const other = make();
      await remembered(one, 'dropped');
      const [first] = await one.read(['dropped']);
      await client().client('KILL', 'TYPE', 'pubsub'); // every listener: invalidations are lost until they reconnect
      await other.bump(['dropped']);
      await expect.poll(async () => (await one.read(['dropped']))[0], { timeout: 5_000, interval: 20 }).not.toBe(first);
      const [now] = await one.read(['dropped']);
      await remembered(one, 'dropped');
      await other.bump(['dropped']);
      await expect.poll(async () => (await one.read(['dropped']))[0], { timeout: 2_000, interval: 10 }).not.toBe(now);
    }, 20_000);

    it('hears every instance\'s bumps, in order, with their new versions, and reads an announced version without a round trip', async () => {
      const gateway = make();
      const watched = heard(gateway);
      await remembered(gateway, 'announced');
      const [first] = await gateway.read(['announced']);
      const one = new RedisVersionStore(client(), prefix);
      const two = new RedisVersionStore(client(), prefix);
      await Promise.all([one.bump(['announced', 'also']), two.bump(['announced'])]);
      await expect.poll(() => watched.bumps.length, { timeout: 2_000, interval: 10 }).toBe(2);
      expect(watched.bumps.map((b) => b.keys).sort((a, b) => a.length - b.length)).toEqual([['announced'], ['announced', 'also']]);
      // The last version heard is the one in Redis, and the gateway reads it from what it heard.
      const last = watched.bumps.at(-1)!.versions[0];
      expect(last).not.toBe(first);
      const before = await getsSoFar();
      expect(await gateway.read(['announced'])).toEqual([last]);
      expect(await getsSoFar()).toBe(before);
      expect(await one.read(['announced'])).toEqual([last]);
      watched.stop();
      await one.bump(['announced']);
      await expect.poll(async () => (await gateway.read(['announced']))[0], { timeout: 2_000, interval: 10 }).not.toBe(last);
      expect(watched.bumps).toHaveLength(2);
    }, 15_000);

    it('hears announcements again once its listening connection is back, and reads the right version meanwhile', async () => {
      const gateway = make();
      const watched = heard(gateway);
      const bumper = new RedisVersionStore(client(), prefix);
      await remembered(gateway, 'reconnected');
      await client().client('KILL', 'TYPE', 'pubsub');
      await bumper.bump(['reconnected']); // lost to the dropped listener, or heard once it is back: the read is right either way
      const [current] = await bumper.read(['reconnected']);
      expect(await gateway.read(['reconnected'])).toEqual([current]);
      // Once it listens again, each bump is heard, and the version it announced is read without a round trip.
      await expect.poll(async () => {
        const heardBefore = watched.bumps.length;
        await bumper.bump(['reconnected']);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return watched.bumps.length > heardBefore;
      }, { timeout: 5_000, interval: 100 }).toBe(true);
      await remembered(gateway, 'reconnected');
      await bumper.bump(['reconnected']);
      const [latest] = await bumper.read(['reconnected']);
      await expect.poll(() => watched.bumps.at(-1)?.versions[0], { timeout: 2_000, interval: 10 }).toBe(latest);
      const before = await getsSoFar();
      expect(await gateway.read(['reconnected'])).toEqual([latest]);
      expect(await getsSoFar()).toBe(before);
    }, 20_000);

    it('refuses a read at once while Redis cannot be reached, instead of queueing it through the reconnections', async () => {
      const unreachable = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, retryStrategy: () => 100 });
      const store = new TrackedRedisVersionStore(unreachable, prefix);
      try {
        await expect(store.read(['down'])).rejects.toThrow('could not read the version of down');
      } finally {
        await store.close();
        unreachable.disconnect();
      }
    });
  });

  it('bumps the versions it could not bump while Redis was unreachable as soon as it is back', async () => {
    const redis = new Redis(server.url, { enableOfflineQueue: false });
    clients.push(redis);
    await once(redis, 'ready');
    const store = new RedisVersionStore(redis, prefix);
    const [before] = await store.read(['missed']);
    redis.disconnect();
    await expect(store.bump(['missed'])).rejects.toThrow(); // the change committed; its new version could not be set
    expect(await new RedisVersionStore(client(), prefix).read(['missed'])).toEqual([before]);
    await redis.connect();
    await expect.poll(async () => (await store.read(['missed']))[0], { timeout: 5_000, interval: 20 }).not.toBe(before);
  });

  it('expires versions after the TTL (a version a crashed process failed to bump is not stale forever)', async () => {
    const redis = client();
    await new RedisVersionStore(redis, prefix).read(['ttl']);
    const ttl = await redis.ttl(`${prefix}ttl`);
    expect(ttl).toBeGreaterThan(VERSION_TTL_SECONDS - 5);
    expect(ttl).toBeLessThanOrEqual(VERSION_TTL_SECONDS);
  });

  it('keeps a kept key without a TTL, bumped with others in one call, and writes none on a read', async () => {
    const redis = client();
    const store = new RedisVersionStore(redis, prefix);
    const kept = keptKey('viewer:ttl');
    await store.read([kept]);
    expect(await redis.exists(`${prefix}${kept}`)).toBe(0);
    await store.bump([kept, 'ttl-beside']);
    expect(await redis.ttl(`${prefix}${kept}`)).toBe(-1); // no expiry
    expect(await redis.ttl(`${prefix}ttl-beside`)).toBeGreaterThan(VERSION_TTL_SECONDS - 5);
  });
});

describe('answeredNotModified', () => {
  let app: FastifyInstance;
  const store = serviceVersions(new MemoryVersionStore(), 'test', createLogger({ name: 'test', level: 'silent' }));
  let dataReads = 0;
  beforeAll(async () => {
    app = createHttpApp({ logger: createLogger({ name: 'test', level: 'silent' }) });
    app.get('/polled/:user', async (request, reply) => {
      const { user } = request.params as { user: string };
      if (await answeredNotModified(request, reply, store, [`user:${user}`])) return reply;
      dataReads += 1;
      return { user, reads: dataReads };
    });
    await app.ready();
  });
  afterAll(async () => { await app.close(); });

  const poll = (url: string, etag?: string) => app.inject({ method: 'GET', url, headers: etag ? { 'if-none-match': etag } : {} });

  it('answers 304 to an unchanged poll without reading the data, and 200 with a new ETag after a bump', async () => {
    const first = await poll('/polled/1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const reads = dataReads;

    const again = await poll('/polled/1', etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(dataReads).toBe(reads);

    expect((await poll('/polled/1', `W/${etag}`)).statusCode).toBe(304); // a weak comparison is enough for a GET
    expect((await poll('/polled/1', `"other", ${etag}`)).statusCode).toBe(304);

    await store.bump(['user:1']);
    const changed = await poll('/polled/1', etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(dataReads).toBe(reads + 1);
  });

  it('gives each URL and each user its own ETag: another user\'s bump changes nothing here', async () => {
    const mine = String((await poll('/polled/2')).headers.etag);
    const withQuery = String((await poll('/polled/2?limit=5')).headers.etag);
    expect(withQuery).not.toBe(mine);
    expect((await poll('/polled/2?limit=5', mine)).statusCode).toBe(200);
    await store.bump(['user:3']);
    expect((await poll('/polled/2', mine)).statusCode).toBe(304);
  });

  it('answers in full, without an ETag, when the versions cannot be read', async () => {
    const failing = createHttpApp({ logger: createLogger({ name: 'test', level: 'silent' }) });
    failing.get('/polled', async (request, reply) => {
      const broken: VersionStore = { read: () => Promise.reject(new Error('down')), bump: async () => {} };
      if (await answeredNotModified(request, reply, broken, ['k'])) return reply;
      return { ok: true };
    });
    const res = await failing.inject({ method: 'GET', url: '/polled', headers: { 'if-none-match': '*' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBeUndefined();
    await failing.close();
  });
});
