/**
 * Kept versions (http/versions.ts): a service sets every kept key it should have once it serves, marks that it did
 * (KEPT_KEYS_SET), and sets them again at its next check when the store lost them, so that a kept key without a
 * version means "never set" wherever the mark is.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { KEPT_KEYS_SET, keptKey } from '@puente/contracts';
import { describeWithInfra, startRedis, useFreshDatabase, type RedisServer } from '@puente/testkit';
import { RedisVersionStore, versionKeyOf } from './http/versions.ts';
import { InProcessJobQueue } from './jobs/in-process.ts';
import { createLogger } from './logger.ts';
import { InProcessBus } from './messaging/in-process.ts';
import { NoteSchema } from './messaging/note.fixture.ts';
import { defineService, startService, type RunningService } from './service.ts';
import { testKeys } from './testing.ts';

describeWithInfra(['postgres', 'redis'], 'a service\'s kept versions', () => {
  const db = useFreshDatabase('kept_versions');
  const logger = createLogger({ name: 'kept', level: 'silent' });
  const bus = new InProcessBus();
  let redisServer: RedisServer;
  let redis: Redis;
  let store: RedisVersionStore;
  let svc: RunningService;
  /** The users the service's database says are in a block. */
  const inBlocks = [3, 8];
  const read = (...names: string[]) => store.read(names.map((name) => versionKeyOf('exchange', name)));

  beforeAll(async () => {
    redisServer = await startRedis();
    redis = new Redis(redisServer.url);
    store = new RedisVersionStore(redis, 'kept-test:');
    svc = await startService(defineService({
      name: 'exchange', entities: [NoteSchema], migrationsPath: '', routes: () => undefined,
      keptKeys: async () => inBlocks.map((id) => keptKey(`viewer:${id}`)),
    }), {
      databaseUrl: db.url, bus, keys: testKeys(), logger, serviceUrls: {}, versions: store,
      jobs: () => new InProcessJobQueue({ logger }), schedulesCheckMs: 300,
    }, { host: '127.0.0.1', port: 0 });
    await svc.joined;
  }, 30_000);
  afterAll(async () => {
    await svc?.stop();
    await bus.close();
    await redis?.quit();
    await redisServer?.stop();
  });

  it('sets every kept key it should have, and the mark that it did, by the time it has joined; no other', async () => {
    const [three, eight, five, set] = await read(keptKey('viewer:3'), keptKey('viewer:8'), keptKey('viewer:5'), KEPT_KEYS_SET);
    expect([three, eight, set].every((v) => v !== '')).toBe(true);
    expect(new Set([three, eight, set]).size).toBe(3);
    expect(five).toBe('');
  });

  it('sets them again at its next check once the store lost its data, the mark last', async () => {
    inBlocks.push(5); // a block made while the store was away is in the database all the same
    await redis.flushdb();
    expect(await read(keptKey('viewer:3'), KEPT_KEYS_SET)).toEqual(['', '']);
    await vi.waitFor(async () => expect((await read(KEPT_KEYS_SET))[0]).not.toBe(''), { timeout: 5_000, interval: 50 });
    expect((await read(keptKey('viewer:3'), keptKey('viewer:8'), keptKey('viewer:5'))).every((v) => v !== '')).toBe(true);
  });

  it('leaves them as they are while the mark is there', async () => {
    const before = await read(keptKey('viewer:3'), KEPT_KEYS_SET);
    await sleep(700); // two checks
    expect(await read(keptKey('viewer:3'), KEPT_KEYS_SET)).toEqual(before);
  });
});
