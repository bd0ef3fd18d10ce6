import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithInfra, infraAvailability, startPostgres, useFreshDatabase } from './index.ts';
import type { PostgresServer } from './index.ts';

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function processArgs(): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n');
}

describeWithInfra(['postgres'], 'startPostgres', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 30_000);
  afterAll(() => server?.stop());

  it('serves the admin database at url', async () => {
    expect(server.url).toMatch(/^postgres:\/\/[^@]+@[^:]+:\d+\/\w+/);
    const [row] = await query<{ version: string }>(server.url, 'select version()');
    expect(row?.version).toMatch(/PostgreSQL/);
  });

  it('createDatabase gives a fresh database to create tables in and query', async () => {
    const url = await server.createDatabase('orders');
    expect(new URL(url).pathname).toMatch(/^\/orders_[a-z0-9]+_[0-9a-f]{8}$/);
    await query(url, 'create table orders (id serial primary key, amount numeric not null)');
    await query(url, 'insert into orders (amount) values ($1), ($2)', [10.5, 20]);
    const rows = await query<{ total: string }>(url, 'select sum(amount) as total from orders');
    expect(rows).toEqual([{ total: '30.5' }]);
    const [db] = await query<{ db: string }>(url, 'select current_database() as db');
    expect(`/${db?.db}`).toBe(new URL(url).pathname);
  });

  it('two createDatabase calls give isolated databases', async () => {
    const [a, b] = await Promise.all([server.createDatabase('iso'), server.createDatabase('iso')]);
    expect(a).not.toBe(b);
    await query(a, 'create table only_in_a (x int)');
    await query(a, 'insert into only_in_a values (1)');
    const inB = await query<{ n: number }>(b, "select count(*)::int as n from pg_tables where tablename = 'only_in_a'");
    expect(inB).toEqual([{ n: 0 }]);
    await expect(query(b, 'select * from only_in_a')).rejects.toThrow(/does not exist/);
  });

  it('sanitises odd prefixes into valid database names', async () => {
    const url = await server.createDatabase('My-Service.Test!');
    expect(new URL(url).pathname).toMatch(/^\/my_service_test_/);
    await query(url, 'select 1');
  });
});

describeWithInfra(['postgres'], 'stop()', () => {
  it('stops the server and, for a local one, leaves no process or files behind', async () => {
    const server = await startPostgres();
    await query(server.url, 'select 1');
    const port = new URL(server.url).port;
    const postmaster = processArgs().find((args) => args.includes(` -p ${port} `));
    const dataDir = / -D (\S+)/.exec(postmaster ?? '')?.[1];
    if (infraAvailability('postgres').how === 'local') {
      expect(dataDir && existsSync(dataDir)).toBe(true);
    }
    await server.stop();
    await expect(query(server.url, 'select 1')).rejects.toThrow(/ECONNREFUSED/);
    await server.stop(); // idempotent
    expect(processArgs().filter((args) => args.includes(` -p ${port} `))).toEqual([]);
    if (dataDir) expect(existsSync(dirname(dataDir))).toBe(false);
  }, 30_000);
});

describeWithInfra(['postgres'], 'useFreshDatabase', () => {
  const db = useFreshDatabase('fresh');
  const other = useFreshDatabase('fresh');

  it('gives each call its own database on a shared server', async () => {
    expect(db.url).not.toBe(other.url);
    expect(new URL(db.url).port).toBe(new URL(other.url).port);
    await query(db.url, 'create table t (x int)');
    await expect(query(other.url, 'select * from t')).rejects.toThrow(/does not exist/);
  });
});

