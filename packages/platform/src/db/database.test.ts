import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { openDatabase } from './database.ts';

const migrationsPath = fileURLToPath(new URL('./migrations.fixture', import.meta.url));
const INSTANCES = 3;

describeWithInfra(['postgres'], 'migrating a schema from several instances starting together', () => {
  const db = useFreshDatabase('migrate_race');
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => { await client?.end(); });

  // Without the lock each round failed: one instance's `create table` collided with another's ("already exists").
  it.each([1, 2, 3])('round %i: every instance starts and each migration is applied once', async (round) => {
    const schema = `race_${round}`;
    const started = await Promise.allSettled(
      Array.from({ length: INSTANCES }, () => openDatabase({ url: db.url, schema, entities: [], migrationsPath })),
    );
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    expect(started.map((s) => (s.status === 'fulfilled' ? 'started' : String(s.reason)))).toEqual(Array(INSTANCES).fill('started'));

    const applied = await client.query(`select name from "${schema}".mikro_orm_migrations order by id`);
    expect(applied.rows.map((r) => r.name)).toEqual(['Migration20260101000000_notes', 'Migration20260101000001_tags']);
    const tables = await client.query(`select table_name from information_schema.tables where table_schema = $1 order by 1`, [schema]);
    expect(tables.rows.map((r) => r.table_name)).toEqual(['mikro_orm_migrations', 'note', 'tag']);
  }, 30_000);
});
