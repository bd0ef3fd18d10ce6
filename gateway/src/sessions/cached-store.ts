/**
 * A short memory in front of the session store: the cookie is checked on every /api call — every poll included —
 * and the store is Redis (a round trip) or the embedded database. A session read from the store is trusted for
 * `freshMs`; a session ended anywhere is forgotten at once: here when this gateway ends it, on every other instance
 * when the store announces it (Redis pub/sub), and the whole memory is dropped when those announcements may have
 * been missed (the subscription reconnected). While the store cannot be reached, a session read within `staleMs`
 * keeps working, so an outage of the store does not sign out everyone who is using the app. The store is asked
 * through a deadline and a breaker (store-guard.ts): while it is down every request gets its answer (the remembered
 * session, or the failure) at once.
 */
import { storeGuard, type StoreGuard } from '../store-guard.ts';
import type { SessionRecord, SessionStore } from './store.ts';

interface Known { record: SessionRecord; readAt: number }

export interface CachedSessionStoreOptions {
  /** How long a session read from the store is trusted (default 10 s). */
  freshMs?: number;
  /** How long it keeps working while the store cannot be reached (default 60 s). */
  staleMs?: number;
  /** Sessions remembered (default 200,000). */
  max?: number;
  /** How long the store may take to answer before it counts as unreachable (default 2 s). */
  timeoutMs?: number;
  /** How long a store that failed is not asked again (default 1 s). */
  retryMs?: number;
}

export class CachedSessionStore implements SessionStore {
  private readonly store: SessionStore;
  /** A plain map emptied when full (a miss costs one read of the store; an LRU's bookkeeping cost every call). */
  private readonly known = new Map<string, Known>();
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly max: number;
  /** The store's answer; a rejection once timeoutMs has passed without one, or at once while it failed lately. */
  private readonly ask: StoreGuard;

  constructor(store: SessionStore, opts: CachedSessionStoreOptions = {}) {
    this.store = store;
    this.freshMs = opts.freshMs ?? 10_000;
    this.staleMs = opts.staleMs ?? 60_000;
    this.max = opts.max ?? 200_000;
    this.ask = storeGuard('the session store', opts);
    store.onEnded?.((ids) => {
      if (ids === 'unknown') this.known.clear();
      else for (const id of ids) this.known.delete(id);
    });
  }

  async save(sessionId: string, record: SessionRecord): Promise<void> {
    await this.ask(() => this.store.save(sessionId, record));
    this.remember(sessionId, record, Date.now());
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const now = Date.now();
    const known = this.known.get(sessionId);
    if (known && now - known.readAt < this.freshMs) return known.record.expiresAt > now ? known.record : undefined;
    let record: SessionRecord | undefined;
    try {
      record = await this.ask(() => this.store.get(sessionId));
    } catch (err) {
      if (known && now - known.readAt < this.staleMs && known.record.expiresAt > now) return known.record;
      throw err;
    }
    if (record) this.remember(sessionId, record, now);
    else this.known.delete(sessionId);
    return record;
  }

  private remember(sessionId: string, record: SessionRecord, readAt: number): void {
    if (this.known.size >= this.max) this.known.clear();
    this.known.set(sessionId, { record, readAt });
  }

  async delete(sessionId: string): Promise<void> {
    this.known.delete(sessionId);
    await this.ask(() => this.store.delete(sessionId));
  }

  async deleteUserSessions(userId: number, keep?: string): Promise<string[]> {
    const ended = await this.ask(() => this.store.deleteUserSessions(userId, keep));
    for (const id of ended) this.known.delete(id);
    return ended;
  }

  /** The store underneath stays its owner's to close. */
  async close(): Promise<void> {}
}
