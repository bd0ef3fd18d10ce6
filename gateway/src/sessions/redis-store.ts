/**
 * Sessions in Redis (distributed mode), shared by every gateway instance:
 * `puente:gateway:session:<id>` → JSON record, expiring with the session;
 * `puente:gateway:user-sessions:<userId>` → set of the user's session ids, expiring with their newest session.
 * Ids of sessions that expired on their own linger in the set until the next revocation deletes them (harmless).
 * Every ending is published on `puente:gateway:sessions-ended`, so each gateway forgets the sessions it remembers.
 */
import type { Redis } from 'ioredis';
import type { SessionRecord, SessionStore } from './store.ts';

const PREFIX = 'puente:gateway:';
const ENDED_CHANNEL = `${PREFIX}sessions-ended`;
const sessionKey = (id: string) => `${PREFIX}session:${id}`;
const userKey = (userId: number) => `${PREFIX}user-sessions:${userId}`;

export class RedisSessionStore implements SessionStore {
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
    const tx = this.redis.multi().del(sessionKey(sessionId)).publish(ENDED_CHANNEL, JSON.stringify([sessionId]));
    if (record) tx.srem(userKey(record.userId), sessionId);
    await tx.exec();
  }

  async deleteUserSessions(userId: number, keep?: string): Promise<string[]> {
    const ids = (await this.redis.smembers(userKey(userId))).filter((id) => id !== keep);
    if (ids.length === 0) return [];
    await this.redis.multi().del(...ids.map(sessionKey)).srem(userKey(userId), ...ids).publish(ENDED_CHANNEL, JSON.stringify(ids)).exec();
    return ids;
  }

  onEnded(listener: (ended: string[] | 'unknown') => void): void {
    const subscriber = this.subscriber = this.redis.duplicate();
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
