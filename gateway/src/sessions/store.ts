/**
 * Where the gateway keeps sessions: session id → { userId, role, expiresAt }, and each user's set of session ids
 * (so "end every session of this user" is one call). The cookie only names a session; a session missing here is
 * no session, so deleting it here revokes the cookie at once on every gateway instance sharing the store.
 * Two adapters: memory (embedded, one process) and Redis (distributed, redis-store.ts).
 */
import type { Role } from '@puente/platform';

export interface SessionRecord {
  userId: number;
  role: Role;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface SessionStore {
  save(sessionId: string, record: SessionRecord): Promise<void>;
  /** The live session, or undefined (unknown, deleted or expired). */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  delete(sessionId: string): Promise<void>;
  /** Deletes every session of the user except `keep`; resolves to the ids deleted. */
  deleteUserSessions(userId: number, keep?: string): Promise<string[]>;
  /**
   * A store shared by several gateways tells each of them of the sessions any of them ended ('unknown' when some
   * announcements may have been missed), so that none keeps trusting a remembered one (cached-store.ts).
   */
  onEnded?(listener: (ended: string[] | 'unknown') => void): void;
  close(): Promise<void>;
}

const SWEEP_INTERVAL_MS = 10 * 60_000;

export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly byUser = new Map<number, Set<string>>();
  private readonly sweeper: NodeJS.Timeout;
  /** Gateways sharing this store in one process (tests) hear of every ending, as they would through Redis. */
  private readonly endedListeners: ((ended: string[]) => void)[] = [];

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async save(sessionId: string, record: SessionRecord): Promise<void> {
    this.sessions.set(sessionId, { ...record });
    let ids = this.byUser.get(record.userId);
    if (!ids) this.byUser.set(record.userId, ids = new Set());
    ids.add(sessionId);
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const record = this.sessions.get(sessionId);
    if (!record) return undefined;
    if (record.expiresAt <= Date.now()) {
      this.remove(sessionId);
      return undefined;
    }
    return { ...record };
  }

  async delete(sessionId: string): Promise<void> {
    this.remove(sessionId);
    this.announce([sessionId]);
  }

  async deleteUserSessions(userId: number, keep?: string): Promise<string[]> {
    const ids = [...(this.byUser.get(userId) ?? [])].filter((id) => id !== keep);
    for (const id of ids) this.remove(id);
    this.announce(ids);
    return ids;
  }

  onEnded(listener: (ended: string[]) => void): void {
    this.endedListeners.push(listener);
  }

  private announce(ids: string[]): void {
    if (ids.length > 0) for (const listener of this.endedListeners) listener(ids);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private remove(sessionId: string): void {
    const record = this.sessions.get(sessionId);
    if (!record) return;
    this.sessions.delete(sessionId);
    const ids = this.byUser.get(record.userId);
    ids?.delete(sessionId);
    if (ids?.size === 0) this.byUser.delete(record.userId);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.sessions) if (record.expiresAt <= now) this.remove(id);
  }
}
