/**
 * Sessions kept in PostgreSQL (embedded mode: the PGlite database), so a restart keeps everyone signed in.
 * Embedded mode runs exactly one gateway, so this store is the only writer: it serves reads from memory (the
 * cookie is checked on every /api call, the polled ones included) and writes every change through to the table
 * before answering. Do not share its table between gateway instances; distributed mode uses Redis.
 */
import type { Pool } from 'pg';
import { batchedCalls, type BatchedCalls } from '@puente/platform';
import { MemorySessionStore, type ListableSessionStore, type SessionRecord, type UserSession } from './store.ts';

type Use = Parameters<ListableSessionStore['recordUse']>[2];

export class PostgresSessionStore implements ListableSessionStore {
  private readonly memory = new MemorySessionStore();
  private readonly pool: Pool;
  private readonly table: string;
  /**
   * Uses written together, one statement at a time (batchedCalls): a crowd arriving (after a restart, a morning peak)
   * records a use each at once, and one UPDATE each queued on the embedded database, ahead of every service's queries.
   */
  private readonly uses: BatchedCalls<{ sessionId: string; use: Use }, void>;

  private constructor(pool: Pool, schema: string) {
    this.pool = pool;
    this.table = `"${schema}".session`;
    this.uses = batchedCalls(async (recorded) => {
      const latest = new Map(recorded.map(({ sessionId, use }) => [sessionId, use]));
      const ids = [...latest.keys()];
      const uses = [...latest.values()];
      await this.pool.query(`UPDATE ${this.table} AS s SET created_at = COALESCE(s.created_at, u.at), last_seen_at = u.at, user_agent = u.user_agent, ip = u.ip
        FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) AS u(id, at, user_agent, ip) WHERE s.id = u.id`,
      [ids, uses.map((u) => u.at), uses.map((u) => u.userAgent), uses.map((u) => u.ip)]);
      return recorded.map(() => undefined);
    });
  }

  /** Creates the table when missing and loads every live session. */
  static async open(pool: Pool, schema: string): Promise<PostgresSessionStore> {
    const store = new PostgresSessionStore(pool, schema);
    await pool.query(`CREATE TABLE IF NOT EXISTS ${store.table} (
      id text PRIMARY KEY, user_id integer NOT NULL, role text NOT NULL, expires_at bigint NOT NULL)`);
    // The session's use (signed-in devices) and its second factor came later: added to a table an earlier version made.
    await pool.query(`ALTER TABLE ${store.table} ADD COLUMN IF NOT EXISTS created_at bigint,
      ADD COLUMN IF NOT EXISTS last_seen_at bigint, ADD COLUMN IF NOT EXISTS user_agent text, ADD COLUMN IF NOT EXISTS ip text,
      ADD COLUMN IF NOT EXISTS two_factor boolean NOT NULL DEFAULT false`);
    await pool.query(`DELETE FROM ${store.table} WHERE expires_at <= $1`, [Date.now()]);
    const { rows } = await pool.query<{
      id: string; user_id: number; role: SessionRecord['role']; two_factor: boolean; expires_at: string;
      created_at: string | null; last_seen_at: string | null; user_agent: string | null; ip: string | null;
    }>(`SELECT id, user_id, role, two_factor, expires_at, created_at, last_seen_at, user_agent, ip FROM ${store.table}`);
    for (const row of rows) {
      const record = { userId: row.user_id, role: row.role, ...(row.two_factor ? { twoFactor: true } : {}), expiresAt: Number(row.expires_at) };
      await store.memory.save(row.id, record);
      if (row.created_at !== null) await store.memory.recordUse(row.id, record, { at: Number(row.created_at), userAgent: null, ip: null });
      if (row.last_seen_at !== null) await store.memory.recordUse(row.id, record, { at: Number(row.last_seen_at), userAgent: row.user_agent, ip: row.ip });
    }
    return store;
  }

  async save(sessionId: string, record: SessionRecord): Promise<void> {
    await this.pool.query(`INSERT INTO ${this.table} (id, user_id, role, two_factor, expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [sessionId, record.userId, record.role, record.twoFactor === true, record.expiresAt]);
    await this.memory.save(sessionId, record);
  }

  get(sessionId: string): Promise<SessionRecord | undefined> {
    return this.memory.get(sessionId);
  }

  async delete(sessionId: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE id = $1`, [sessionId]);
    await this.memory.delete(sessionId);
  }

  async deleteUserSessions(userId: number, keep?: string): Promise<string[]> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE user_id = $1 AND id IS DISTINCT FROM $2`, [userId, keep ?? null]);
    return this.memory.deleteUserSessions(userId, keep);
  }

  async recordUse(sessionId: string, record: SessionRecord, use: Use): Promise<void> {
    // Memory first: the list reads it, and must show a login's session as soon as its answer is out. Then an UPDATE
    // (with the others recorded meanwhile): a session deleted meanwhile has no row to write to, so it stays ended.
    await this.memory.recordUse(sessionId, record, use);
    await this.uses.load({ sessionId, use });
  }

  userSessions(userId: number): Promise<UserSession[]> {
    return this.memory.userSessions(userId);
  }

  async close(): Promise<void> {
    await this.memory.close();
  }
}
