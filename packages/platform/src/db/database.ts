/**
 * The database layer: one MikroORM per service, bound to the service's own PostgreSQL schema, migrated at start
 * from the service's committed migrations (src/migrations, with their snapshot). A service never names another
 * service's schema or tables.
 */
import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import type { Logger } from 'pino';
import { ServiceNames } from '@puente/contracts';
import { platformEntities } from './platform-entities.ts';

export type { EntityManager };
export type Orm = MikroORM;

export interface DatabaseOptions {
  url: string;
  /** The service's schema, e.g. 'identity'. */
  schema: string;
  entities: unknown[];
  /** Absolute path to the service's migrations folder; without one (tests of the platform itself) the schema is created from the entities. */
  migrationsPath?: string;
  logger?: Logger;
  debug?: boolean;
  poolMax?: number;
}

export function ormOptions(opts: DatabaseOptions): Options {
  // A Unix socket folder comes as `?host=/dir` (libpq's form); MikroORM reads only the URL's host name, so say it.
  const socketDir = new URL(opts.url).searchParams.get('host');
  return {
    clientUrl: opts.url,
    ...(socketDir ? { host: socketDir } : {}),
    schema: opts.schema,
    entities: [...(opts.entities as never[]), ...platformEntities],
    extensions: [Migrator],
    debug: opts.debug ?? false,
    pool: { min: 0, max: opts.poolMax ?? 10 },
    allowGlobalContext: false,
    // A service's schema diff must never see (let alone drop) another service's schema.
    schemaGenerator: { ignoreSchema: ['public', ...ServiceNames.filter((n) => n !== opts.schema)] },
    migrations: {
      ...(opts.migrationsPath ? { path: opts.migrationsPath, pathTs: opts.migrationsPath } : {}),
      glob: '!(*.d|*.test|index).{js,ts}',
      schema: opts.schema,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: true,
      snapshotOnMigrate: false,
      snapshotName: `.snapshot-${opts.schema}`,
      silent: true,
      emit: 'ts',
    },
    ...(opts.logger ? { logger: (message: string) => opts.logger!.debug({ orm: true }, message) } : {}),
  } as Options;
}

/**
 * Connects, makes sure the schema exists and applies pending migrations. Instances of a service starting together
 * take turns: each holds the schema's advisory lock while it migrates, so the others find nothing left to apply.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(opts));
  try {
    await whileHoldingMigrationLock(opts, async (lockConnection) => {
      await lockConnection.query(`create schema if not exists "${opts.schema.replace(/"/g, '')}"`);
      if (opts.migrationsPath) await orm.migrator.up();
      else await orm.schema.update();
    });
  } catch (err) {
    await orm.close();
    throw err;
  }
  return orm;
}

/**
 * Runs `fn` holding a session-level advisory lock named after the schema, on a connection of its own outside the
 * ORM's pool (the migrator uses the pool's). That connection never opens a transaction: on the embedded database
 * (PGlite, one session behind every connection, serving only the connection in a transaction until it ends) the
 * migrator's queries on other connections go on. There the lock belongs to the one session, so it is re-entrant and
 * excludes nothing, which is fine: the embedded runner starts the services one after another.
 */
async function whileHoldingMigrationLock(opts: DatabaseOptions, fn: (lockConnection: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: opts.url });
  await client.connect();
  try {
    const key = ['puente-migrate:' + opts.schema];
    const { rows } = await client.query<{ locked: boolean }>(`select pg_try_advisory_lock(hashtext($1)) as locked`, key);
    if (!rows[0]?.locked) {
      opts.logger?.info({ schema: opts.schema }, 'another instance is migrating this schema: waiting for it to finish');
      await client.query(`select pg_advisory_lock(hashtext($1))`, key);
    }
    try {
      await fn(client);
    } finally {
      // PostgreSQL releases the lock with the connection, but PGlite's one session outlives it.
      await client.query(`select pg_advisory_unlock(hashtext($1))`, key);
    }
  } finally {
    await client.end();
  }
}

/** Cheap liveness query for readiness checks. */
export async function databaseHealthy(orm: Orm): Promise<boolean> {
  try {
    await orm.em.fork().execute('select 1');
    return true;
  } catch {
    return false;
  }
}
