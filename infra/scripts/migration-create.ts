/**
 * Writes a new migration for a service from the difference between its entities and its committed migrations.
 *   npm run migration:create -- <service> [name]
 * Uses a throwaway Postgres from the testkit (or DATABASE_URL's server): applies the existing migrations to a fresh
 * database, diffs against the entities and writes services/<service>/src/migrations/Migration<timestamp>.ts
 * with its snapshot.
 */
import { randomBytes } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '@puente/platform';
import { ServiceNames, type ServiceName } from '@puente/contracts';
import { startPostgres } from '@puente/testkit';
import { serviceDefinitions } from '../services.ts';

const [service, name] = process.argv.slice(2);
if (!service || !(ServiceNames as readonly string[]).includes(service)) {
  console.error(`usage: npm run migration:create -- <${ServiceNames.join('|')}> [name]`);
  process.exit(2);
}
// Only the entities matter here: settings a service needs at run time get throwaway values when unset.
const def = serviceDefinitions({ BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, ...process.env })[service as ServiceName];
const pg = await startPostgres();
try {
  const url = await pg.createDatabase('migrations');
  console.log(`[1/3] fresh database ready; applying ${service}'s existing migrations`);
  const orm = await MikroORM.init(ormOptions({ url, schema: def.name, entities: def.entities, migrationsPath: def.migrationsPath }));
  await orm.em.fork().execute(`create schema if not exists "${def.name}"`);
  await orm.migrator.up();
  console.log('[2/3] diffing entities against the schema');
  const result = await orm.migrator.create(undefined, false, false, name);
  if (result.diff.up.length === 0) console.log('[3/3] no changes: the migrations already match the entities');
  else console.log(`[3/3] wrote ${def.migrationsPath}/${result.fileName}`);
  await orm.close();
} finally {
  await pg.stop();
}
