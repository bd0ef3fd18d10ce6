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
 * its commit and its bump. Kept keys (keptKey in @puente/contracts: who sees a filtered market) are the exception:
 * a read never gives one a version ('' while none was set), and what a bump set is neither evicted nor expires, so
 * that "no version" means "never set" (a store that lost its data is told by the service's KEPT_KEYS_SET).
 *
 * Every bump is also announced, with the keys' new versions, to whoever watches the store (the gateway: it tells the
 * open sockets of the users a change concerns, so their screens read it at once instead of at their next poll). In
 * memory the watchers are called in the process; in Redis the new versions are set and published on one channel in
 * one script, so every watcher hears a key's bumps in the order Redis made them. An announcement is best effort
 * (one made while a watcher's connection is down is lost): the polls still see every change.
 */
import { hash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { isKeptKey } from '@puente/contracts';

export interface VersionStore {
  /** The current version of each key, in order (a new one for a key it does not hold; '' for a kept key without). */
  read(keys: readonly string[]): Promise<string[]>;
  /** New versions for these keys: call after the change is committed, never before. */
  bump(keys: readonly string[]): Promise<void>;
  /**
   * Calls `listener` with each bump made through any store sharing these versions, as it is announced, until the
   * returned function is called. Only stores that hear announcements have it (the gateway's).
   */
  watch?(listener: VersionsListener): () => void;
}

/** A bump as announced: the keys (as the store names them) and their new versions, in the same order. */
export interface VersionsBumped {
  keys: readonly string[];
  versions: readonly string[];
}

export type VersionsListener = (bumped: VersionsBumped) => void;

/** Calls every listener; one that throws neither stops the others nor fails the bump (already made). */
function announce(listeners: ReadonlySet<VersionsListener>, bumped: VersionsBumped): void {
  for (const listener of listeners) {
    try {
      listener(bumped);
    } catch { /* a watcher's own failure: the polls still see the change */ }
  }
}

/** One process's versions (embedded mode, tests): a bounded map, oldest entries dropped first; kept keys apart, never dropped. */
export class MemoryVersionStore implements VersionStore {
  private readonly versions = new Map<string, string>();
  private readonly kept = new Map<string, string>();
  private readonly base = randomUUID().slice(0, 8);
  private next = 0;
  private readonly maxKeys: number;
  private readonly listeners = new Set<VersionsListener>();

  constructor(maxKeys = 200_000) {
    this.maxKeys = maxKeys;
  }

  private fresh(key: string): string {
    const version = `${this.base}.${++this.next}`;
    if (isKeptKey(key)) {
      this.kept.set(key, version);
      return version;
    }
    this.versions.delete(key); // re-inserted last: the map's order is the eviction order
    this.versions.set(key, version);
    if (this.versions.size > this.maxKeys) this.versions.delete(this.versions.keys().next().value!);
    return version;
  }

  async read(keys: readonly string[]): Promise<string[]> {
    return keys.map((key) => isKeptKey(key) ? this.kept.get(key) ?? '' : this.versions.get(key) ?? this.fresh(key));
  }

  async bump(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const versions = keys.map((key) => this.fresh(key));
    announce(this.listeners, { keys, versions });
  }

  watch(listener: VersionsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** How long a version lives in Redis after its last change. */
export const VERSION_TTL_SECONDS = 15 * 60;

const VERSION_PREFIX = 'puente:version:';

/** The channel on which bumps are announced (a channel, apart from the keys: the same prefix keeps tests apart). */
const announcementsOf = (prefix: string) => `${prefix}bumped`;

/**
 * Sets the new versions and publishes them in one step: two bumps of one key made at once by two instances are
 * announced in the order their versions were set, so the last version a watcher hears is the one in Redis.
 * KEYS: the versions' keys. ARGV: their new versions, then each one's TTL (0: kept, none), the channel and the
 * announcement.
 */
const BUMP_AND_ANNOUNCE = `
local n = #KEYS
for i = 1, n do
  if ARGV[n + i] == '0' then redis.call('SET', KEYS[i], ARGV[i]) else redis.call('SET', KEYS[i], ARGV[i], 'EX', ARGV[n + i]) end
end
redis.call('PUBLISH', ARGV[2 * n + 1], ARGV[2 * n + 2])
`;

/** How many keys whose bump failed are remembered, to be bumped once Redis is back (beyond it, the TTL bounds it). */
const MAX_UNBUMPED = 100_000;

/**
 * Versions in Redis, shared by every instance of a service (distributed mode). A change committed while Redis could
 * not be reached leaves its keys' old versions in Redis, and the polls revalidating them would be told "not modified"
 * about data that changed: the keys are remembered and bumped as soon as the connection is ready again.
 */
export class RedisVersionStore implements VersionStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly unbumped = new Set<string>();

  constructor(redis: Redis, prefix = VERSION_PREFIX) {
    this.redis = redis;
    this.prefix = prefix;
    redis.on('ready', () => void this.bumpMissed());
  }

  async read(keys: readonly string[]): Promise<string[]> {
    const pipeline = this.redis.pipeline();
    // Set a new version only where there is none (never for a kept key), then read whichever is there: one round
    // trip for all keys.
    const reads: number[] = [];
    for (const key of keys) {
      if (!isKeptKey(key)) pipeline.set(this.prefix + key, randomUUID(), 'EX', VERSION_TTL_SECONDS, 'NX');
      reads.push(pipeline.length);
      pipeline.get(this.prefix + key);
    }
    const results = (await pipeline.exec()) ?? [];
    return keys.map((key, i) => {
      const [err, value] = results[reads[i]!] ?? [new Error('no reply')];
      if (value === null && isKeptKey(key) && !err) return '';
      if (err || typeof value !== 'string') throw new Error(`could not read the version of ${key}`, { cause: err });
      return value;
    });
  }

  async bump(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const versions = keys.map(() => randomUUID());
    const announcement = JSON.stringify({ keys, versions } satisfies VersionsBumped);
    try {
      await this.redis.eval(BUMP_AND_ANNOUNCE, keys.length, ...keys.map((key) => this.prefix + key),
        ...versions, ...keys.map((key) => isKeptKey(key) ? 0 : VERSION_TTL_SECONDS), announcementsOf(this.prefix), announcement);
    } catch (err) {
      for (const key of keys) if (this.unbumped.size < MAX_UNBUMPED) this.unbumped.add(key);
      throw err;
    }
  }

  private async bumpMissed(): Promise<void> {
    if (this.unbumped.size === 0) return;
    const keys = [...this.unbumped];
    this.unbumped.clear();
    await this.bump(keys).catch(() => undefined); // remembered again for the next reconnection
  }
}

const INVALIDATIONS = '__redis__:invalidate';
/** How long a remembered version is trusted at most, however quiet Redis is; and how many are remembered. */
const REMEMBER_MS = 60_000;
const MAX_REMEMBERED = 500_000;

/**
 * Versions in Redis remembered in this process until Redis says they changed — Redis's server-assisted
 * client-side caching: CLIENT TRACKING in broadcast mode on the versions' prefix, the invalidations sent to a
 * connection of their own. The gateway reads a version on every poll; an unchanged one then costs no round trip.
 * Nothing is remembered until tracking is on, nor after either connection dropped (invalidations may have been
 * missed meanwhile); a read that an invalidation overtook is not remembered; a minute bounds any staleness.
 *
 * The same listening connection hears the bumps announced (RedisVersionStore): while tracking, an announced version
 * is remembered as it comes, so the polls after a change cost no round trip either. Redis sends broadcast-mode
 * invalidations in one batch at the end of each turn of its event loop (beforeSleep), after everything published in
 * that turn: the first invalidation of a key after its announcement is the bump's own, and leaves the announced
 * version remembered; any later one (a change in a later turn) forgets it as usual. Only a change in the same turn
 * that announces nothing (a process of an older release bumping, during a rolling deploy) could be missed so,
 * and a minute still bounds it.
 */
export class TrackedRedisVersionStore implements VersionStore {
  private readonly reader: Redis;
  private readonly listener: Redis;
  private readonly store: RedisVersionStore;
  private readonly prefix: string;
  /**
   * Versions read while tracking, and when (a plain map emptied when full: a miss costs one Redis read); `announced`
   * until the announced bump's own invalidation came.
   */
  private readonly known = new Map<string, { version: string; at: number; announced?: true }>();
  /** Keys being read, by the read's token: an invalidation meanwhile removes them, and the answer is not kept. */
  private readonly reading = new Map<string, number>();
  private tracking = false;
  private token = 0;
  /** The listener's client id once it listens (a fresh connection: CLIENT ID is refused once subscribed). */
  private listenerId: number | undefined;
  private readonly announcements: string;
  private readonly listeners = new Set<VersionsListener>();

  /** Opens two connections of its own, like `redis`; close() closes them. */
  constructor(redis: Redis, prefix = VERSION_PREFIX) {
    this.prefix = prefix;
    this.announcements = announcementsOf(prefix);
    // No queue while disconnected: a read fails at once (the poll then goes to the service) instead of waiting
    // for the reconnection attempts, so a Redis outage does not hold polls back.
    this.reader = redis.duplicate({ enableOfflineQueue: false });
    this.listener = redis.duplicate({ autoResubscribe: false });
    this.store = new RedisVersionStore(this.reader, prefix);
    this.listener.on('messageBuffer', (channel: Buffer, message: Buffer[] | Buffer | null) => {
      if (channel.toString() === this.announcements) this.announced(message as Buffer);
      else this.invalidate(message);
    });
    for (const connection of [this.reader, this.listener]) {
      connection.on('error', () => { /* reads go straight to Redis meanwhile; the owner's connection reports outages */ });
      connection.on('close', () => this.forget());
    }
    this.listener.on('close', () => { this.listenerId = undefined; });
    this.listener.on('ready', () => void this.listen());
    this.reader.on('ready', () => void this.track());
  }

  async read(keys: readonly string[]): Promise<string[]> {
    if (!this.tracking) return this.store.read(keys);
    const now = Date.now();
    const found = keys.map((key) => {
      const known = this.known.get(key);
      return known && now - known.at < REMEMBER_MS ? known.version : undefined;
    });
    const missing = keys.filter((_, i) => found[i] === undefined);
    if (missing.length === 0) return found as string[];
    const token = ++this.token;
    for (const key of missing) this.reading.set(key, token);
    const fetched = await this.store.read(missing);
    missing.forEach((key, i) => {
      if (this.reading.get(key) !== token) return;
      this.reading.delete(key);
      if (!this.tracking) return;
      if (this.known.size >= MAX_REMEMBERED) this.known.clear();
      this.known.set(key, { version: fetched[i]!, at: now });
    });
    return keys.map((key, i) => found[i] ?? fetched[missing.indexOf(key)]!);
  }

  async bump(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.known.delete(key);
    await this.store.bump(keys);
  }

  watch(listener: VersionsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.forget();
    await Promise.all([this.reader, this.listener].map((c) => c.quit().catch(() => c.disconnect())));
  }

  private invalidate(keys: Buffer[] | Buffer | null): void {
    if (keys === null) {
      this.known.clear(); // the whole database was flushed
      this.reading.clear();
      return;
    }
    for (const raw of Array.isArray(keys) ? keys : [keys]) {
      const key = raw.toString().slice(this.prefix.length);
      const known = this.known.get(key);
      if (known?.announced) delete known.announced; // the announced bump's own: what it announced is current
      else this.known.delete(key);
      this.reading.delete(key);
    }
  }

  private announced(message: Buffer): void {
    let bumped: VersionsBumped;
    try {
      bumped = JSON.parse(message.toString()) as VersionsBumped;
    } catch {
      return;
    }
    if (!Array.isArray(bumped.keys) || !Array.isArray(bumped.versions) || bumped.keys.length !== bumped.versions.length) return;
    if (this.tracking) {
      const now = Date.now();
      bumped.keys.forEach((key, i) => {
        this.reading.delete(key); // a read begun before this bump must not put back what it found
        if (this.known.size >= MAX_REMEMBERED) this.known.clear();
        this.known.set(key, { version: bumped.versions[i]!, at: now, announced: true });
      });
    }
    announce(this.listeners, bumped);
  }

  private forget(): void {
    this.tracking = false;
    this.known.clear();
    this.reading.clear();
  }

  private async listen(): Promise<void> {
    try {
      const id = await this.listener.client('ID');
      await this.listener.subscribe(INVALIDATIONS, this.announcements);
      this.listenerId = id;
      await this.track();
    } catch {
      this.forget();
    }
  }

  /** Turns tracking on for the reader, redirected to the listener (again after either reconnected). */
  private async track(): Promise<void> {
    const id = this.listenerId;
    if (id === undefined || this.reader.status !== 'ready') return;
    try {
      // Off first: Redis refuses to change a tracking connection's mode in place (a new listener, a new redirect).
      await this.reader.call('CLIENT', 'TRACKING', 'off');
      await this.reader.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', String(id), 'BCAST', 'PREFIX', this.prefix);
      if (this.listenerId === id) this.tracking = true;
    } catch {
      this.forget();
    }
  }
}

/** How the store names a service's key (the keys a watcher hears): under the service's name. */
export const versionKeyOf = (service: string, key: string) => `${service}:${key}`;

/** A service's own view of the store: its keys live under its name. */
export function serviceVersions(store: VersionStore, service: string, logger: Pick<Logger, 'warn'>): VersionStore {
  const scoped = (keys: readonly string[]) => keys.map((key) => versionKeyOf(service, key));
  return {
    read: (keys) => store.read(scoped(keys)),
    // A failed bump must not fail a change that is already committed: the version's TTL bounds the staleness.
    bump: (keys) => store.bump(scoped(keys)).catch((err: unknown) => logger.warn({ err, keys }, 'could not bump versions')),
  };
}

const POLLED_CACHE_CONTROL = 'private, no-cache';

/** The ETag of a polled answer: its versions and its URL (the service's, without the gateway's /api prefix). */
export function pollEtag(versions: readonly string[], url: string): string {
  // One-shot hash(): half the time of createHash().update().digest() (measured), on every poll.
  return `"${hash('sha1', `${versions.join('|')}\n${url}`, 'base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names this ETag (or `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** The headers of every polled answer: the browser keeps it and revalidates it by itself. */
export function pollHeaders(etag: string): Record<string, string> {
  return { etag, 'cache-control': POLLED_CACHE_CONTROL };
}

/**
 * Makes a polled GET conditional on the versions of `keys`: sets ETag and `Cache-Control: private, no-cache`, and
 * answers 304 when If-None-Match already names this ETag. Returns true when it answered; the handler then returns
 * the reply. When the store cannot be read the poll is answered in full, without an ETag.
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
  const etag = pollEtag(current, request.url);
  reply.headers(pollHeaders(etag));
  if (!etagMatches(request.headers['if-none-match'], etag)) return false;
  await reply.code(304).send();
  return true;
}
