import { afterAll, beforeAll, describe, it } from 'vitest';
import { availabilityOf, INSTALL_HINT } from './availability.ts';
import { dropDatabase, startPostgres } from './postgres.ts';
import type { Infra, PostgresServer } from './types.ts';

/**
 * `describe(name, fn)` when every kind of infrastructure in `kinds` is available (see infraAvailability).
 * Otherwise, locally: the suite is skipped with a console message saying what to install. Under CI=true it never
 * skips: it registers a failing test carrying that message, so missing infrastructure cannot go unnoticed in CI.
 * The suite starts its servers itself (e.g. `beforeAll(async () => { pg = await startPostgres() })`).
 */
export function describeWithInfra(kinds: Infra[], name: string, fn: () => void): void {
  const missing = kinds.filter((kind) => !availabilityOf(kind).available);
  if (missing.length === 0) {
    describe(name, fn);
    return;
  }
  const message =
    `"${name}" needs ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not available. ` +
    `Install with \`${INSTALL_HINT}\` (or set ${missing.map(envVarOf).join(' / ')}, or start a Docker engine).`;
  if (process.env.CI === 'true') {
    describe(name, () => {
      it(`requires ${missing.join(', ')}`, () => {
        throw new Error(message);
      });
    });
    return;
  }
  console.warn(`[testkit] skipping: ${message}`);
  describe.skip(name, fn);
}

function envVarOf(kind: Infra): string {
  return kind === 'postgres' ? 'DATABASE_URL' : kind === 'redis' ? 'REDIS_URL' : 'KAFKA_BROKERS';
}

let shared: Promise<PostgresServer> | null = null;

/**
 * One Postgres server per test process (= per test file with vitest's default isolation), started on first use and
 * stopped when the process exits. Use it when a test file only needs databases, not a server of its own.
 */
export function sharedPostgres(): Promise<PostgresServer> {
  if (!shared) {
    const starting = startPostgres();
    shared = starting;
    // never stopped explicitly: the process-exit handling in process.ts takes a local server down
    starting.catch(() => {
      if (shared === starting) shared = null;
    });
  }
  return shared;
}

/**
 * Registers a beforeAll that creates a fresh database (on the shared server) for the enclosing suite/file.
 * Read `.url` inside tests or hooks, not at collection time:
 *
 *   const db = useFreshDatabase('orders');
 *   beforeAll(async () => { pool = new pg.Pool({ connectionString: db.url }) });
 */
export function useFreshDatabase(prefix?: string): { readonly url: string } {
  let url: string | null = null;
  let serverUrl = '';
  beforeAll(async () => {
    const server = await sharedPostgres();
    serverUrl = server.url;
    url = await server.createDatabase(prefix);
  }, 60_000);
  afterAll(async () => {
    // On a server we did not start (DATABASE_URL) do not leave databases behind. Not FORCE: a test that still holds
    // connections keeps its database rather than getting them killed under it.
    if (url !== null && availabilityOf('postgres').how === 'env') {
      await dropDatabase(serverUrl, decodeURIComponent(new URL(url).pathname.slice(1))).catch(() => {});
    }
    url = null;
  });
  return {
    get url(): string {
      if (url === null) throw new Error('useFreshDatabase(): the database exists only while the suite runs');
      return url;
    },
  };
}
