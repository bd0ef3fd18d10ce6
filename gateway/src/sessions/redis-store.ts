/**
 * Sessions in Redis (distributed mode), shared by every gateway instance:
 * `puente:gateway:session:<id>` → JSON record, expiring with the session;
 * `puente:gateway:user-sessions:<userId>` → set of the user's session ids, expiring with their newest session.
 * Ids of sessions that expired on their own linger in the set until the next revocation deletes them (harmless).
 */
import type { Redis } from 'ioredis';
import type { SessionRecord, SessionStore } from './store.ts';

const PREFIX = 'puente:gateway:';
const sessionKey = (id: string) => `${PREFIX}session:${id}`;
const userKey = (userId: number) => `${PREFIX}user-sessions:${userId}`;

export class RedisSessionStore implements SessionStore {
  private readonly redis: Redis;

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
    const tx = this.redis.multi().del(sessionKey(sessionId));
    if (record) tx.srem(userKey(record.userId), sessionId);
    await tx.exec();
  }

  async deleteUserSessions(userId: number, keep?: string): Promise<string[]> {
    const ids = (await this.redis.smembers(userKey(userId))).filter((id) => id !== keep);
    if (ids.length === 0) return [];
    await this.redis.multi().del(...ids.map(sessionKey)).srem(userKey(userId), ...ids).exec();
    return ids;
  }

  async close(): Promise<void> {}
}
