/**
 * The embedded database serves every service's connections from one PGlite session. Its socket server (patched,
 * patches/@electric-sql+pglite-socket+*.patch) must keep each connection's extended-protocol batch — Parse, Bind,
 * Execute, Sync — together, as it keeps a transaction together: interleaved, one connection's Parse replaced
 * another's unnamed statement ("unnamed prepared statement does not exist", or another query's rows).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

describe('the embedded database under concurrent connections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'puente-pglite-'));
  let db: PGlite;
  let server: PGLiteSocketServer;
  let pools: pg.Pool[];

  beforeAll(async () => {
    db = await PGlite.create({ dataDir: join(dir, 'data') }); // on disk, as embedded mode runs it
    server = new PGLiteSocketServer({ db, path: join(dir, '.s.PGSQL.5432'), maxConnections: 20 });
    await server.start();
    pools = Array.from({ length: 3 }, () => new pg.Pool({ host: dir, user: 'postgres', database: 'postgres', max: 4 }));
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await server.stop();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 600 parameterised queries sent at once over 12 connections, each with its own rows', async () => {
    // Keeping batches together must not stall the queue: many connections, each query its own text, every third a
    // simple query.
    await pools[0]!.query('create table if not exists note (n int primary key, label text)');
    const answers = await Promise.allSettled(Array.from({ length: 600 }, (_, i) => pools[i % pools.length]!.query<{ n: number; label: string }>(
      i % 3 === 0 ? `insert into note values (${i}, 'query ${i}') returning n, label` : `insert into note values ($1, $2::text || '${i}') returning n, label`,
      i % 3 === 0 ? [] : [i, 'query '])));
    const failed = answers.filter((a) => a.status === 'rejected').map((a) => String((a as PromiseRejectedResult).reason));
    expect(failed).toEqual([]);
    const rows = answers.map((a) => (a as PromiseFulfilledResult<pg.QueryResult<{ n: number; label: string }>>).value.rows[0]);
    expect(rows).toEqual(Array.from({ length: 600 }, (_, i) => ({ n: i, label: `query ${i}` })));
  });

  it('keeps a transaction whole while others wait, then serves the waiting batches one by one, and goes on after a failed query', async () => {
    const client = await pools[0]!.connect();
    try {
      await client.query('create table if not exists counter (n int)');
      await client.query('begin');
      await client.query('insert into counter values ($1)', [1]);
      const outside = pools[1]!.query<{ c: string }>('select count(*) as c from counter');
      // Batches from several connections queue up behind the transaction and are released together by its commit.
      const waiting = Array.from({ length: 8 }, (_, i) => pools[1 + (i % 2)]!.query<{ n: number }>(`select $1::int + ${i} as n`, [100 * i]));
      await new Promise((r) => setTimeout(r, 50)); // time passing on purpose: the batches reach the server before the commit
      await client.query('insert into counter values ($1)', [2]);
      await client.query('commit');
      expect((await outside).rows[0]!.c).toBe('2'); // waited for the commit: never saw half of it
      const released = await Promise.allSettled(waiting);
      expect(released.map((r) => (r.status === 'fulfilled' ? r.value.rows[0]!.n : String(r.reason))))
        .toEqual(Array.from({ length: 8 }, (_, i) => 101 * i));
      await expect(pools[2]!.query('select $1::int / 0', [1])).rejects.toThrow(/division by zero/);
      expect((await pools[2]!.query('select $1::int as n', [7])).rows).toEqual([{ n: 7 }]);
    } finally {
      client.release();
    }
  });
});
