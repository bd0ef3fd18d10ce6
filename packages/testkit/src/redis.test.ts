import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithInfra, startRedis } from './index.ts';
import type { RedisServer } from './index.ts';

function tcpConnect(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

describeWithInfra(['redis'], 'startRedis', () => {
  let server: RedisServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  }, 30_000);
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  it('serves SET/GET through ioredis', async () => {
    expect(server.url).toMatch(/^redis:\/\/[^:]+:\d+$/);
    await redis.set('greeting', 'hola', 'EX', 60);
    expect(await redis.get('greeting')).toBe('hola');
    expect(await redis.incr('counter')).toBe(1);
    expect(await redis.incr('counter')).toBe(2);
  });

  it('is not persisting anything to disk', async () => {
    expect(await redis.config('GET', 'save')).toEqual(['save', '']);
    expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
  });
});

describeWithInfra(['redis'], 'startRedis stop()', () => {
  it('gives independent servers and stop() shuts one down', async () => {
    const [a, b] = await Promise.all([startRedis(), startRedis()]);
    try {
      expect(a.url).not.toBe(b.url);
      const ra = new Redis(a.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
      const rb = new Redis(b.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
      ra.on('error', () => {});
      await ra.set('k', 'a');
      expect(await rb.get('k')).toBe(null);
      rb.disconnect();
      await a.stop();
      await expect(ra.get('k')).rejects.toThrow();
      ra.disconnect();
      const { hostname, port } = new URL(a.url);
      await expect(tcpConnect(hostname, Number(port))).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 30_000);
});
