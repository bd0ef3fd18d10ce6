import { beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { databaseUrl, describeWithInfra, sharedPostgres, uniqueDatabaseName, type PostgresServer } from '@puente/testkit';
import { createDatabaseIfMissing } from './database.ts';

describeWithInfra(['postgres'], 'the distributed runner\'s database', () => {
  let server: PostgresServer;
  beforeAll(async () => { server = await sharedPostgres(); }, 60_000);

  it('is created when the server has none of that name, and left alone when it has', async () => {
    const name = uniqueDatabaseName('runner');
    const url = databaseUrl(server.url, name);
    try {
      expect(await createDatabaseIfMissing(url)).toBe(true);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ db: string }>('select current_database() as db');
      await client.end();
      expect(rows[0]?.db).toBe(name);
      expect(await createDatabaseIfMissing(url)).toBe(false);
    } finally {
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });

  it('says what to do when the server cannot be reached', async () => {
    await expect(createDatabaseIfMissing('postgres://postgres@127.0.0.1:1/puente')).rejects.toThrow(/PostgreSQL at 127\.0\.0\.1:1 did not accept a connection .*start it, or correct DATABASE_URL/);
  });
});

