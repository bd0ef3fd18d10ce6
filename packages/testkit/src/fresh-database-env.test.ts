import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithInfra, startPostgres, useFreshDatabase } from './index.ts';
import type { PostgresServer } from './index.ts';

// A file of its own: useFreshDatabase's shared server is per process, and here it must come from DATABASE_URL.

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describeWithInfra(['postgres'], 'useFreshDatabase on a DATABASE_URL server', () => {
  let real: PostgresServer;
  const savedUrl = process.env.DATABASE_URL;
  let seen = '';
  // registered before useFreshDatabase: beforeAll runs before its hook, afterAll after its hook (stack order)
  beforeAll(async () => {
    real = await startPostgres();
    process.env.DATABASE_URL = real.url;
  }, 30_000);
  afterAll(async () => {
    try {
      const name = new URL(seen).pathname.slice(1);
      const rows = await query<{ n: number }>(real.url, 'select count(*)::int as n from pg_database where datname = $1', [name]);
      expect(rows).toEqual([{ n: 0 }]); // dropped, not left behind on somebody's server
    } finally {
      if (savedUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = savedUrl;
      await real.stop();
    }
  });
  const db = useFreshDatabase('envfresh');

  it('creates the database on that server', async () => {
    seen = db.url;
    expect(new URL(db.url).port).toBe(new URL(real.url).port);
    await query(db.url, 'create table t (x int)');
  });
});
