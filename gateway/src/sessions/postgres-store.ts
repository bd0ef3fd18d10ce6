/**
 * Sessions kept in PostgreSQL (embedded mode: the PGlite database), so a restart keeps everyone signed in.
 * Embedded mode runs exactly one gateway, so this store is the only writer: it serves reads from memory (the
 * cookie is checked on every /api call, the polled ones included) and writes every change through to the table
 * before answering. Do not share its table between gateway instances; distributed mode uses Redis.
 */
import type { Pool } from 'pg';
import { MemorySessionStore, type SessionRecord, type SessionStore } from './store.ts';

export class PostgresSessionStore implements SessionStore {
  private readonly memory = new MemorySessionStore();
  private readonly pool: Pool;
  private readonly table: string;

  private constructor(pool: Pool, schema: string) {
    this.pool = pool;
    this.table = `"${schema}".session`;
  }

  /** Creates the table when missing and loads every live session. */
  static async open(pool: Pool, schema: string): Promise<PostgresSessionStore> {
    const store = new PostgresSessionStore(pool, schema);
    await pool.query(`CREATE TABLE IF NOT EXISTS ${store.table} (
      id text PRIMARY KEY, user_id integer NOT NULL, role text NOT NULL, expires_at bigint NOT NULL)`);
    await pool.query(`DELETE FROM ${store.table} WHERE expires_at <= $1`, [Date.now()]);
    const { rows } = await pool.query<{ id: string; user_id: number; role: SessionRecord['role']; expires_at: string }>(
      `SELECT id, user_id, role, expires_at FROM ${store.table}`);
    for (const row of rows) await store.memory.save(row.id, { userId: row.user_id, role: row.role, expiresAt: Number(row.expires_at) });
    return store;
  }

  async save(sessionId: string, record: SessionRecord): Promise<void> {
    await this.pool.query(`INSERT INTO ${this.table} (id, user_id, role, expires_at) VALUES ($1, $2, $3, $4)`,
      [sessionId, record.userId, record.role, record.expiresAt]);
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

  async close(): Promise<void> {
    await this.memory.close();
  }
}
