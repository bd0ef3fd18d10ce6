import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { availabilityOf, localPostgresBinaries } from './availability.ts';
import { startPostgresContainer } from './containers.ts';
import { freePort, isRoot, lookupUser, onProcessExit, sleepSync, spawnManaged } from './process.ts';
import type { PostgresServer } from './types.ts';

/**
 * A Postgres server: DATABASE_URL if set, else a throwaway local server (initdb + postgres in a temp dir),
 * else a postgres:16-alpine container. `createDatabase()` makes a fresh, uniquely named database on it.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const availability = availabilityOf('postgres');
  switch (availability.how) {
    case 'env': {
      const url = process.env.DATABASE_URL as string;
      return withCreateDatabase(url, { external: true, stopServer: async () => {} });
    }
    case 'local':
      return startLocalPostgres();
    case 'container': {
      const { url, stop } = await startPostgresContainer();
      return withCreateDatabase(url, { external: false, stopServer: stop });
    }
    case 'none':
      throw new Error(`No Postgres available: ${availability.hint}`);
  }
}

/** `postgres://user@host:port/<name>` for the same server as `url`. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** A fresh database name: `<prefix>_<time>_<random>`, lower case, at most 63 characters (Postgres' limit). */
export function uniqueDatabaseName(prefix = 'test'): string {
  const clean = prefix.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'test';
  return `${clean}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

function withCreateDatabase(
  url: string,
  { external, stopServer }: { external: boolean; stopServer: () => Promise<void> },
): PostgresServer {
  const created: string[] = [];
  return {
    url,
    async createDatabase(prefix?: string) {
      const name = uniqueDatabaseName(prefix);
      await withClient(url, (client) => client.query(`CREATE DATABASE "${name}"`));
      created.push(name);
      return databaseUrl(url, name);
    },
    async stop() {
      // On a server we did not start (DATABASE_URL), drop what we created instead of leaving it behind.
      if (external && created.length > 0) {
        await withClient(url, async (client) => {
          for (const name of created.splice(0)) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        }).catch(() => {});
      }
      await stopServer();
    },
  };
}

/** Drops `database` on the server, connecting through `serverUrl` (any database on that server but this one). */
export async function dropDatabase(serverUrl: string, database: string, { force = false } = {}): Promise<void> {
  await withClient(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS "${database.replaceAll('"', '""')}"${force ? ' WITH (FORCE)' : ''}`),
  );
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Local throwaway server. `postgres` runs as our direct child (not daemonised through pg_ctl), so its pid is known
// for the exit handler; SIGQUIT is what `pg_ctl stop -m immediate` sends.

async function startLocalPostgres(): Promise<PostgresServer> {
  const bins = localPostgresBinaries();
  if (!bins) throw new Error('initdb/postgres not found');
  const dir = mkdtempSync(join(tmpdir(), 'puente-pg-'));
  const dataDir = join(dir, 'data');
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  // At process exit, after the postgres child got SIGQUIT: give it a moment to go, then delete its files.
  let unregisterDir = onProcessExit(
    () => {},
    () => {
      for (let i = 0; i < 30 && existsSync(join(dataDir, 'postmaster.pid')); i++) sleepSync(10);
      removeDir();
    },
  );
  // As root, run initdb/postgres as the `postgres` OS user (they refuse to run as root).
  const user = isRoot ? lookupUser('postgres') : null;
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  if (user) chownSync(dir, user.uid, user.gid);
  const env = { ...process.env, TZ: process.env.TZ ?? 'UTC', LC_ALL: 'C', LANG: 'C' };

  try {
    const initdb = spawnManaged(
      bins.initdb,
      ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C', '--no-instructions'],
      { ...asUser, env, cwd: dir, reaper: false },
    );
    await initdb.exited;
    if (initdb.child.exitCode !== 0) throw new Error(`initdb failed (exit ${initdb.child.exitCode}):\n${initdb.output()}`);

    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      let ready = false;
      let onReady: () => void = () => {};
      const readyPromise = new Promise<void>((resolve) => {
        onReady = resolve;
      });
      let seen = '';
      const server = spawnManaged(
        bins.postgres,
        [
          '-D', dataDir,
          '-p', String(port),
          '-F',
          '-k', dir,
          '-c', 'listen_addresses=127.0.0.1',
          '-c', 'fsync=off',
          '-c', 'synchronous_commit=off',
          '-c', 'full_page_writes=off',
          '-c', 'max_connections=200',
        ],
        {
          ...asUser,
          env,
          cwd: dir,
          exitSignal: 'SIGQUIT', // = pg_ctl stop -m immediate
          reaper: { removeDir: dir },
          onOutput: (text) => {
            if (ready) return;
            seen = (seen + text).slice(-4096);
            if (seen.includes('database system is ready to accept connections')) {
              ready = true;
              onReady();
            }
          },
        },
      );
      const settled = new AbortController(); // clears the timer once the server is ready or gone
      const outcome = await Promise.race([
        readyPromise.then(() => 'ready' as const),
        server.exited.then(() => 'exited' as const),
        sleep(30_000, 'timeout' as const, { signal: settled.signal }),
      ]).finally(() => settled.abort());
      if (outcome === 'ready') {
        server.unref();
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        return withCreateDatabase(url, {
          external: false,
          stopServer: async () => {
            await server.stop('SIGQUIT', 5000);
            unregisterDir();
            unregisterDir = () => {};
            removeDir();
          },
        });
      }
      await server.stop('SIGKILL');
      const portTaken = /could not bind|Address already in use/i.test(server.output());
      if (outcome === 'exited' && portTaken && attempt < 3) continue;
      throw new Error(`postgres did not start (${outcome}):\n${server.output()}`);
    }
  } catch (err) {
    unregisterDir();
    removeDir();
    throw err;
  }
}
