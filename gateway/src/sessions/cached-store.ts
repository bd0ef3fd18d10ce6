/**
 * A short memory in front of the session store: the cookie is checked on every /api call — every poll included —
 * and the store is Redis (a round trip) or the embedded database. A session read from the store is trusted for
 * `freshMs`; a session ended anywhere is forgotten at once: here when this gateway ends it, on every other instance
 * when the store announces it (Redis pub/sub), and the whole memory is dropped when those announcements may have
 * been missed (the subscription reconnected). The store is asked through a deadline and a breaker (store-guard.ts):
 * while it is down every request gets its answer (the remembered session, or the failure) at once.
 *
 * Through an outage of the store (Redis down), a session read within `staleMs` keeps working, so that nobody using
 * the app is signed out (the default, 10 minutes, outlasts an outage of 5 minutes and more). Ending sessions goes on
 * meanwhile:
 * - a revocation (identity's session action: a password changed or reset, the account deleted) that the store cannot
 *   take marks the user here at once (revocations.ts): the remembered sessions it ends are forgotten and refused,
 *   whatever the store says, and its deletion from the store waits here, retried every `retryMs` until the store
 *   answers. Identity's userSessionsEnded event sets the same mark on every instance (revoke()), the store reachable
 *   or not, so that the instances that did not carry the answer refuse them too.
 * - a logout forgets and refuses its session here and deletes it from the store once it answers.
 * The window that remains (docs/security.md, "Sessions"): an instance that did not hear the event (the broker down
 * as well, or the instance started after it was published) trusts a session it remembers until `staleMs` after its
 * last read of it, or until it can read the store again; and a deletion still waiting here when this instance stops
 * is lost, so that, once the store is back, the ended sessions work again on every instance not holding the mark.
 * A logout during an outage is not announced: other instances remembering its session trust it until their own
 * `staleMs` (its browser no longer holds the cookie).
 */
import type { Logger } from '@puente/platform';
import { storeGuard, type StoreGuard } from '../store-guard.ts';
import { Revocations, sessionIdHash, type Revocation } from './revocations.ts';
import type { SessionRecord, SessionStore } from './store.ts';

interface Known { record: SessionRecord; readAt: number }

/** How long a session read from the store keeps working while the store cannot be reached (SESSION_STALE_IF_ERROR_MINUTES). */
export const DEFAULT_STALE_MS = 10 * 60_000;

export interface CachedSessionStoreOptions {
  /** How long a session read from the store is trusted (default 10 s). */
  freshMs?: number;
  /** How long it keeps working while the store cannot be reached (default DEFAULT_STALE_MS). */
  staleMs?: number;
  /** Sessions remembered (default 200,000). */
  max?: number;
  /** How long the store may take to answer before it counts as unreachable (default 2 s). */
  timeoutMs?: number;
  /** How long a store that failed is not asked again, and how often a deletion that waits for it is tried (default 1 s). */
  retryMs?: number;
  /** How long a revocation is remembered: a session's lifetime (default 7 days). */
  sessionTtlMs?: number;
  /** Told of deletions that wait for the store, and of their landing. */
  logger?: Pick<Logger, 'warn' | 'info'>;
  /** The clock (tests: an outage of minutes in an instant). */
  now?: () => number;
}

export class CachedSessionStore implements SessionStore {
  private readonly store: SessionStore;
  /** A plain map emptied when full (a miss costs one read of the store; an LRU's bookkeeping cost every call). */
  private readonly known = new Map<string, Known>();
  private readonly revocations: Revocations;
  /**
   * Sessions ended here (a logout, a revocation) and when: "no session" while the store cannot say, for staleMs (the
   * store, once back, says so itself; a revocation's mark refuses them beyond).
   */
  private readonly ended = new Map<string, number>();
  /** Deletions the store could not take yet, in the order they were asked for. */
  private readonly waiting: { what: string; apply: () => Promise<unknown> }[] = [];
  private retrier: NodeJS.Timeout | undefined;
  private retrying = false;
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly max: number;
  private readonly retryMs: number;
  private readonly logger: Pick<Logger, 'warn' | 'info'> | undefined;
  private readonly now: () => number;
  /** The store's answer; a rejection once timeoutMs has passed without one, or at once while it failed lately. */
  private readonly ask: StoreGuard;

  constructor(store: SessionStore, opts: CachedSessionStoreOptions = {}) {
    this.store = store;
    this.freshMs = opts.freshMs ?? 10_000;
    this.staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
    this.max = opts.max ?? 200_000;
    this.retryMs = opts.retryMs ?? 1_000;
    this.logger = opts.logger;
    this.now = opts.now ?? (() => Date.now()); // Date.now as it is when called (tests fake it)
    this.revocations = new Revocations(opts.sessionTtlMs ?? 7 * 24 * 3_600_000, this.now);
    this.ask = storeGuard('the session store', opts);
    store.onEnded?.((ids) => {
      if (ids === 'unknown') this.known.clear();
      else for (const id of ids) this.known.delete(id);
    });
  }

  async save(sessionId: string, record: SessionRecord): Promise<void> {
    await this.ask(() => this.store.save(sessionId, record));
    this.remember(sessionId, record, this.now());
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const now = this.now();
    const known = this.known.get(sessionId);
    if (known && now - known.readAt < this.freshMs) return this.live(sessionId, known.record, now);
    let record: SessionRecord | undefined;
    try {
      record = await this.ask(() => this.store.get(sessionId));
    } catch (err) {
      if (known && now - known.readAt < this.staleMs) return this.live(sessionId, known.record, now);
      if (this.endedHere(sessionId, now)) return undefined;
      throw err;
    }
    if (record && this.endedHere(sessionId, now)) return undefined; // its deletion has not reached the store yet
    if (record && this.revocations.refuses(sessionId, record)) {
      // Ended while the store was away, its deletion not landed yet (here or on another instance): ended here.
      this.end([sessionId]);
      this.ask(() => this.store.delete(sessionId)).catch(() => { /* the instance that ended it deletes it */ });
      return undefined;
    }
    if (record) this.remember(sessionId, record, now);
    else this.known.delete(sessionId);
    return record;
  }

  private endedHere(sessionId: string, now: number): boolean {
    const endedAt = this.ended.get(sessionId);
    return endedAt !== undefined && now - endedAt < this.staleMs;
  }

  /** A remembered session, unless it expired or a revocation ended it meanwhile. */
  private live(sessionId: string, record: SessionRecord, now: number): SessionRecord | undefined {
    if (this.revocations.refuses(sessionId, record)) this.end([sessionId]);
    else if (record.expiresAt > now) return record;
    else this.known.delete(sessionId);
    return undefined;
  }

  private remember(sessionId: string, record: SessionRecord, readAt: number): void {
    if (this.known.size >= this.max) this.known.clear();
    this.known.set(sessionId, { record, readAt });
  }

  async delete(sessionId: string): Promise<void> {
    this.end([sessionId]);
    try {
      await this.ask(() => this.store.delete(sessionId));
    } catch (err) {
      this.later('a logout', () => this.store.delete(sessionId), err);
    }
  }

  /**
   * Ends every session of the user but `keep`: deleted from the store now or, while it cannot be reached, refused
   * here at once (a revocation's mark) and deleted once it answers. Resolves to the ids ended (while the store cannot
   * be reached, those remembered here).
   */
  async deleteUserSessions(userId: number, keep?: string): Promise<string[]> {
    const before = this.now();
    try {
      const ended = await this.ask(() => this.store.deleteUserSessions(userId, keep));
      for (const id of ended) this.known.delete(id);
      return ended;
    } catch (err) {
      this.later('a revocation', () => this.store.deleteUserSessions(userId, keep), err);
      return this.revoke({ userId, before, keptHash: keep === undefined ? undefined : sessionIdHash(keep) });
    }
  }

  /** Applies a revocation here (heard from identity, or acted on): resolves to the remembered sessions it ended. */
  revoke(revocation: Revocation): string[] {
    this.revocations.mark(revocation);
    const ended: string[] = [];
    for (const [id, { record }] of this.known) {
      if (record.userId === revocation.userId && this.revocations.refuses(id, record)) ended.push(id);
    }
    this.end(ended);
    return ended;
  }

  private end(sessionIds: readonly string[]): void {
    const now = this.now();
    for (const id of sessionIds) {
      this.known.delete(id);
      if (this.ended.size >= this.max) this.ended.clear();
      this.ended.set(id, now);
    }
  }

  /** Retries a deletion every retryMs until the store takes it. */
  private later(what: string, apply: () => Promise<unknown>, err: unknown): void {
    this.logger?.warn({ err }, `the session store is not reachable: ${what} is applied here and will reach the store once it answers`);
    this.waiting.push({ what, apply });
    this.retrier ??= setInterval(() => void this.retry(), this.retryMs);
    this.retrier.unref();
  }

  private async retry(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    try {
      while (this.waiting.length > 0) {
        const next = this.waiting[0]!;
        await this.ask(next.apply);
        this.waiting.shift();
        this.logger?.info(`the session store answers again: ${next.what} that waited reached it`);
      }
      clearInterval(this.retrier);
      this.retrier = undefined;
    } catch {
      // Still away: tried again in retryMs.
    } finally {
      this.retrying = false;
    }
  }

  /** The store underneath stays its owner's to close; deletions still waiting are dropped (see above). */
  async close(): Promise<void> {
    clearInterval(this.retrier);
    this.retrier = undefined;
  }
}
