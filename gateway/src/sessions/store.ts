/**
 * Where the gateway keeps sessions: session id → { userId, role, twoFactor, expiresAt, grantedAt }, and each user's set of session ids
 * (so "end every session of this user" is one call). The cookie only names a session; a session missing here is
 * no session, so deleting it here revokes the cookie at once on every gateway instance sharing the store.
 * Adapters: memory (tests), PostgreSQL (embedded, postgres-store.ts) and Redis (distributed, redis-store.ts).
 * Beside each session, its use (when it started and was last used, from which browser and address) for the user's
 * list of signed-in devices (SessionListing).
 */
import type { Role } from '@puente/platform';

export interface SessionRecord {
  userId: number;
  role: Role;
  /**
   * Signed in with a second factor (identity's grant says so: the login's code step, or two-factor sign-in turned on
   * in it); what admin access needs in production. Absent in sessions stored before it was recorded: none.
   */
  twoFactor?: boolean;
  /** Epoch milliseconds. */
  expiresAt: number;
  /**
   * Epoch milliseconds of the sign-in: a revocation ends the sessions started before it (revocations.ts). Absent in
   * sessions stored before it was recorded, and not kept by the embedded database: such a session counts as
   * started at 0.
   */
  grantedAt?: number;
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

/** Where and when a session was used (GET /api/auth/sessions). */
export interface SessionUse {
  /** Epoch milliseconds of its first recorded use: the login's answer. */
  createdAt: number;
  /** Epoch milliseconds of its latest recorded use (recorded at most once a minute: sessions/devices.ts). */
  lastSeenAt: number;
  /** The browser's user agent and address at that latest use. */
  userAgent: string | null;
  ip: string | null;
}

/** One live session of a user, with its use when one was recorded. */
export interface UserSession {
  id: string;
  record: SessionRecord;
  use: SessionUse | undefined;
}

/**
 * The signed-in devices of a user: what the list and its revoke need beyond SessionStore. Every adapter has it; the
 * cached store in front of them only speeds up lookups, so listing reads the adapter itself.
 */
export interface SessionListing {
  /**
   * Records a use of a live session (createdAt kept from the first). A session that has ended stays ended: a use
   * recorded after its deletion is not listed and expires with it.
   */
  recordUse(sessionId: string, record: SessionRecord, use: { at: number; userAgent: string | null; ip: string | null }): Promise<void>;
  /** The user's live sessions, in no particular order. */
  userSessions(userId: number): Promise<UserSession[]>;
}

export type ListableSessionStore = SessionStore & SessionListing;

const SWEEP_INTERVAL_MS = 10 * 60_000;

export class MemorySessionStore implements ListableSessionStore {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly uses = new Map<string, SessionUse>();
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

  async recordUse(sessionId: string, _record: SessionRecord, use: { at: number; userAgent: string | null; ip: string | null }): Promise<void> {
    if (!this.sessions.has(sessionId)) return;
    const createdAt = this.uses.get(sessionId)?.createdAt ?? use.at;
    this.uses.set(sessionId, { createdAt, lastSeenAt: use.at, userAgent: use.userAgent, ip: use.ip });
  }

  async userSessions(userId: number): Promise<UserSession[]> {
    const now = Date.now();
    return [...(this.byUser.get(userId) ?? [])].flatMap((id) => {
      const record = this.sessions.get(id);
      if (!record || record.expiresAt <= now) return [];
      const use = this.uses.get(id);
      return [{ id, record: { ...record }, use: use && { ...use } }];
    });
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
    this.uses.delete(sessionId);
    const ids = this.byUser.get(record.userId);
    ids?.delete(sessionId);
    if (ids?.size === 0) this.byUser.delete(record.userId);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.sessions) if (record.expiresAt <= now) this.remove(id);
  }
}
