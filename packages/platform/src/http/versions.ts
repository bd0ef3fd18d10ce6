/**
 * Cheap polling: conditional GETs from versions kept outside the database. A route that browsers poll (every 3 s)
 * names the version keys its answer depends on (e.g. one user's notifications); whoever changes that data gives
 * those keys new versions once the change is committed. The ETag is made of the versions (read before the data, so
 * a change committed meanwhile only makes the next poll fetch again) and the URL, and a poll whose If-None-Match
 * still matches is answered 304 without touching the database.
 *
 * Versions are opaque: a key never seen (or forgotten: evicted, expired, Redis restarted) simply gets a new one,
 * which costs one full answer. The embedded mode keeps them in memory; the distributed mode in Redis, shared by
 * every instance of a service, with a TTL that bounds how long a version can be stale if a process died between
 * its commit and its bump.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface VersionStore {
  /** The current version of each key, in order (a new one for a key it does not hold). */
  read(keys: readonly string[]): Promise<string[]>;
  /** New versions for these keys: call after the change is committed, never before. */
  bump(keys: readonly string[]): Promise<void>;
}

/** One process's versions (embedded mode, tests): a bounded map, oldest entries dropped first. */
export class MemoryVersionStore implements VersionStore {
  private readonly versions = new Map<string, string>();
  private readonly base = randomUUID().slice(0, 8);
  private next = 0;
  private readonly maxKeys: number;

  constructor(maxKeys = 200_000) {
    this.maxKeys = maxKeys;
  }

  private fresh(key: string): string {
    const version = `${this.base}.${++this.next}`;
    this.versions.delete(key); // re-inserted last: the map's order is the eviction order
    this.versions.set(key, version);
    if (this.versions.size > this.maxKeys) this.versions.delete(this.versions.keys().next().value!);
    return version;
  }

  async read(keys: readonly string[]): Promise<string[]> {
    return keys.map((key) => this.versions.get(key) ?? this.fresh(key));
  }

  async bump(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.fresh(key);
  }
}

/** How long a version lives in Redis after its last change. */
export const VERSION_TTL_SECONDS = 15 * 60;

/** Versions in Redis, shared by every instance of a service (distributed mode). */
export class RedisVersionStore implements VersionStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, prefix = 'puente:version:') {
    this.redis = redis;
    this.prefix = prefix;
  }

  async read(keys: readonly string[]): Promise<string[]> {
    const pipeline = this.redis.pipeline();
    // Set a new version only where there is none, then read whichever is there: one round trip for all keys.
    for (const key of keys) pipeline.set(this.prefix + key, randomUUID(), 'EX', VERSION_TTL_SECONDS, 'NX').get(this.prefix + key);
    const results = (await pipeline.exec()) ?? [];
    return keys.map((key, i) => {
      const [err, value] = results[i * 2 + 1] ?? [new Error('no reply')];
      if (err || typeof value !== 'string') throw new Error(`could not read the version of ${key}`, { cause: err });
      return value;
    });
  }

  async bump(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.set(this.prefix + key, randomUUID(), 'EX', VERSION_TTL_SECONDS);
    for (const [err] of (await pipeline.exec()) ?? []) if (err) throw err;
  }
}

/** A service's own view of the store: its keys live under its name. */
export function serviceVersions(store: VersionStore, service: string, logger: Pick<Logger, 'warn'>): VersionStore {
  const scoped = (keys: readonly string[]) => keys.map((key) => `${service}:${key}`);
  return {
    read: (keys) => store.read(scoped(keys)),
    // A failed bump must not fail a change that is already committed: the version's TTL bounds the staleness.
    bump: (keys) => store.bump(scoped(keys)).catch((err: unknown) => logger.warn({ err, keys }, 'could not bump versions')),
  };
}

const POLLED_CACHE_CONTROL = 'private, no-cache';

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * Makes a polled GET conditional on the versions of `keys`: sets ETag and `Cache-Control: private, no-cache` (the
 * browser keeps the answer and revalidates it by itself), and answers 304 when If-None-Match already names this
 * ETag. Returns true when it answered; the handler then returns the reply. When the store cannot be read the poll
 * is answered in full, without an ETag.
 */
export async function answeredNotModified(
  request: FastifyRequest, reply: FastifyReply, versions: VersionStore, keys: readonly string[],
): Promise<boolean> {
  let current: string[];
  try {
    current = await versions.read(keys);
  } catch (err) {
    request.log.warn({ err }, 'versions unavailable: answering in full');
    return false;
  }
  const hash = createHash('sha1').update(current.join('|')).update('\n').update(request.url).digest('base64url').slice(0, 27);
  const etag = `"${hash}"`;
  reply.header('etag', etag).header('cache-control', POLLED_CACHE_CONTROL);
  if (!etagMatches(request.headers['if-none-match'], etag)) return false;
  await reply.code(304).send();
  return true;
}
