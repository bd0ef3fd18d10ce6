/**
 * The distributed runner's first step: the database DATABASE_URL names, created when the server has none of that
 * name (as `createdb` would), so a fresh PostgreSQL needs nothing done by hand. Each service then makes its own
 * schema and tables (its migrations).
 */
import pg from 'pg';

/** Postgres' codes: no database of that name; not allowed to create one. */
const NO_SUCH_DATABASE = '3D000';
const DUPLICATE_DATABASE = '42P04';
const INSUFFICIENT_PRIVILEGE = '42501';

const codeOf = (err: unknown): string | undefined => (err as { code?: string }).code;

async function connected<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates DATABASE_URL's database if missing; true when it did. Errors say what to do next. */
export async function createDatabaseIfMissing(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const where = `${target.hostname}:${target.port || 5432}`;
  try {
    await connected(url, async () => {});
    return false;
  } catch (err) {
    if (codeOf(err) !== NO_SUCH_DATABASE) {
      throw new Error(`PostgreSQL at ${where} did not accept a connection (${(err as Error).message}): start it, or correct DATABASE_URL`, { cause: err });
    }
  }
  const server = new URL(url);
  server.pathname = '/postgres';
  try {
    await connected(server.toString(), (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
    return true;
  } catch (err) {
    // Another runner made it meanwhile: it exists, which is all that was asked.
    if (codeOf(err) === DUPLICATE_DATABASE) return false;
    const how = codeOf(err) === INSUFFICIENT_PRIVILEGE ? 'this role may not create databases' : (err as Error).message;
    throw new Error(`The database ${name} does not exist on ${where} and could not be created (${how}): create it with \`createdb ${name}\` as a role that may, then start again`, { cause: err });
  }
}
