import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { availabilityOf, localRedisBinary } from './availability.ts';
import { startRedisContainer } from './containers.ts';
import { freePort, spawnManaged, waitUntil } from './process.ts';
import type { RedisServer } from './types.ts';

/** A Redis server: REDIS_URL if set, else a throwaway local redis-server, else a redis:7-alpine container. */
export async function startRedis(): Promise<RedisServer> {
  const availability = availabilityOf('redis');
  switch (availability.how) {
    case 'env':
      return { url: process.env.REDIS_URL as string, stop: async () => {} };
    case 'local':
      return startLocalRedis();
    case 'container':
      return startRedisContainer();
    case 'none':
      throw new Error(`No Redis available: ${availability.hint}`);
  }
}

/** Sends a raw PING and resolves true on +PONG (false on any error or after 500 ms). */
export function redisPing(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let reply = '';
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

async function startLocalRedis(): Promise<RedisServer> {
  const bin = localRedisBinary();
  if (!bin) throw new Error('redis-server not found');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const server = spawnManaged(
      bin,
      [
        '--port', String(port),
        '--bind', '127.0.0.1',
        '--save', '',
        '--appendonly', 'no',
        '--daemonize', 'no',
        '--loglevel', 'warning',
      ],
      { cwd: tmpdir() },
    );
    try {
      await waitUntil(
        async () => {
          if (server.hasExited()) throw new Error(`redis-server exited:\n${server.output()}`);
          return redisPing('127.0.0.1', port);
        },
        { timeoutMs: 10_000, intervalMs: 10, describe: () => `redis-server did not answer PING:\n${server.output()}` },
      );
    } catch (err) {
      await server.stop('SIGKILL');
      if (/Address already in use/i.test(server.output()) && attempt < 3) continue;
      throw err;
    }
    server.unref();
    return { url: `redis://127.0.0.1:${port}`, stop: () => server.stop('SIGTERM') };
  }
}
