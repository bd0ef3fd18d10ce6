/**
 * Sessions in Redis (distributed mode), shared by every gateway instance:
 * `puente:gateway:session:<id>` → JSON record, expiring with the session;
 * `puente:gateway:user-sessions:<userId>` → set of the user's session ids, expiring with their newest session.
 * Ids of sessions that expired on their own linger in the set until the next revocation deletes them (harmless).
 * Every ending is published on `puente:gateway:sessions-ended`, so each gateway forgets the sessions it remembers.
 * `puente:gateway:session-use:<id>` → hash of the session's use (signed-in devices), expiring with the session and
 * deleted with it; a use written in the instant after a revocation is never listed (no live session) and expires.
 */
import type { Redis } from 'ioredis';
import type { ListableSessionStore, SessionRecord, SessionUse, UserSession } from './store.ts';

const PREFIX = 'puente:gateway:';
const ENDED_CHANNEL = `${PREFIX}sessions-ended`;
const sessionKey = (id: string) => `${PREFIX}session:${id}`;
const userKey = (userId: number) => `${PREFIX}user-sessions:${userId}`;
const useKey = (id: string) => `${PREFIX}session-use:${id}`;

export class RedisSessionStore implements ListableSessionStore {
  private readonly redis: Redis;
  private subscriber: Redis | undefined;

  /** The Redis client stays its owner's to close. */
  constructor(redis: Redis) {
    this.redis = redis;
  }

  async save(sessionId: string, record: SessionRecord): Promise<void> {
    const ttl = Math.max(1, record.expiresAt - Date.now());
    // Every session of a deployment has the same lifetime, so the newest one expires last: its TTL is the set's.
    await this.redis.multi()
      .set(sessionKey(sessionId), JSON.stringify(record), 'PX', ttl)
      .sadd(userKey(record.userId), sessionId)
      .pexpire(userKey(record.userId), ttl)
      .exec();
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const raw = await this.redis.get(sessionKey(sessionId));
    if (!raw) return undefined;
    const record = JSON.parse(raw) as SessionRecord;
    return record.expiresAt > Date.now() ? record : undefined;
  }

  async delete(sessionId: string): Promise<void> {
    const record = await this.get(sessionId);
    const tx = this.redis.multi().del(sessionKey(sessionId), useKey(sessionId)).publish(ENDED_CHANNEL, JSON.stringify([sessionId]));
    if (record) tx.srem(userKey(record.userId), sessionId);
    await tx.exec();
  }

  async deleteUserSessions(userId: number, keep?: string): Promise<string[]> {
    const ids = (await this.redis.smembers(userKey(userId))).filter((id) => id !== keep);
    if (ids.length === 0) return [];
    await this.redis.multi().del(...ids.map(sessionKey), ...ids.map(useKey)).srem(userKey(userId), ...ids).publish(ENDED_CHANNEL, JSON.stringify(ids)).exec();
    return ids;
  }

  async recordUse(sessionId: string, record: SessionRecord, use: { at: number; userAgent: string | null; ip: string | null }): Promise<void> {
    const ttl = Math.max(1, record.expiresAt - Date.now());
    // A key of its own: writing it never recreates the session's key, so a session ended meanwhile stays ended.
    await this.redis.multi()
      .hsetnx(useKey(sessionId), 'createdAt', String(use.at))
      .hset(useKey(sessionId), { lastSeenAt: String(use.at), userAgent: use.userAgent ?? '', ip: use.ip ?? '' })
      .pexpire(useKey(sessionId), ttl)
      .exec();
  }

  async userSessions(userId: number): Promise<UserSession[]> {
    const ids = await this.redis.smembers(userKey(userId));
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.get(sessionKey(id)).hgetall(useKey(id));
    const results = (await pipeline.exec()) ?? [];
    const now = Date.now();
    return ids.flatMap((id, i) => {
      const [recordError, raw] = results[2 * i] ?? [];
      const [useError, hash] = results[2 * i + 1] ?? [];
      if (recordError) throw recordError;
      if (useError) throw useError;
      if (typeof raw !== 'string') return [];
      const record = JSON.parse(raw) as SessionRecord;
      return record.expiresAt > now ? [{ id, record, use: useOf(hash as Record<string, string>) }] : [];
    });
  }

  onEnded(listener: (ended: string[] | 'unknown') => void): void {
    // Its own queue: the subscription is asked for before the connection is up (the main one queues nothing).
    const subscriber = this.subscriber = this.redis.duplicate({ enableOfflineQueue: true });
    let connections = 0;
    // ioredis subscribes again after a reconnect; what was published meanwhile is lost, so everything is forgotten.
    subscriber.on('ready', () => { if (connections++ > 0) listener('unknown'); });
    subscriber.on('error', () => { /* the main connection reports Redis outages */ });
    subscriber.on('message', (_channel: string, message: string) => {
      try {
        listener(JSON.parse(message) as string[]);
      } catch {
        listener('unknown');
      }
    });
    void subscriber.subscribe(ENDED_CHANNEL).catch(() => listener('unknown'));
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }
}

function useOf(hash: Record<string, string>): SessionUse | undefined {
  if (!hash.createdAt || !hash.lastSeenAt) return undefined;
  return { createdAt: Number(hash.createdAt), lastSeenAt: Number(hash.lastSeenAt), userAgent: hash.userAgent || null, ip: hash.ip || null };
}
