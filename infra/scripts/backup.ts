/**
 * Backup and restore of the distributed mode's data: one pg_dump per service schema.
 *   DATABASE_URL=postgres://… npm run backup -- save <folder>      (writes <folder>/<service>.sql)
 *   DATABASE_URL=postgres://… npm run backup -- restore <folder>   (into a database without those schemas)
 * Needs pg_dump and psql (Debian: postgresql-client) of the server's major version. Bank details stay encrypted in
 * the dump: keep BANK_ENCRYPTION_KEYS (DATA_DIR/secrets.json) with it, or the restored accounts cannot be read.
 * Embedded mode keeps everything in DATA_DIR (.data): stop `npm start`, then copy that folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ServiceNames } from '@puente/contracts';

export type BackupCommand = 'save' | 'restore';

/** Runs pg_dump (save) or psql (restore) for each service schema; throws with the tool's own words on failure. */
export function backup(command: BackupCommand, folder: string, databaseUrl: string, say: (line: string) => void = () => {}): void {
  const dir = resolve(folder);
  if (command === 'save') mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const [i, schema] of ServiceNames.entries()) {
    const file = join(dir, `${schema}.sql`);
    say(`[${i + 1}/${ServiceNames.length}] ${command === 'save' ? 'dumping' : 'restoring'} ${schema} ${command === 'save' ? 'to' : 'from'} ${file}`);
    if (command === 'restore' && !existsSync(file)) throw new Error(`${file} is missing: restore needs every service's dump from one save`);
    const [tool, args] = command === 'save'
      ? ['pg_dump', ['--dbname', databaseUrl, '--schema', schema, ...extensionsIn(schema, databaseUrl), '--no-owner', '--no-privileges', '--file', file]]
      : ['psql', ['--dbname', databaseUrl, '--quiet', '--set', 'ON_ERROR_STOP=1', '--file', file]];
    const run = spawnSync(tool, args as string[], { encoding: 'utf8', env: { ...process.env, PGOPTIONS: '--client-min-messages=warning' } });
    if (run.error) throw new Error(`${tool} could not run (${run.error.message}): install the PostgreSQL client (Debian: apt-get install postgresql-client)`);
    if (run.status !== 0) throw new Error(`${tool} failed for ${schema}: ${run.stderr.trim()}`);
  }
}

/**
 * `--extension` for each extension installed in the schema (audit's pg_trgm, which its indexes use): pg_dump leaves
 * extensions out of a one-schema dump, and the restore would then fail at the first index needing one.
 */
function extensionsIn(schema: string, databaseUrl: string): string[] {
  const run = spawnSync('psql', ['--dbname', databaseUrl, '--no-align', '--tuples-only', '--command',
    `select e.extname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where n.nspname = '${schema}'`], { encoding: 'utf8' });
  if (run.error) throw new Error(`psql could not run (${run.error.message}): install the PostgreSQL client (Debian: apt-get install postgresql-client)`);
  if (run.status !== 0) throw new Error(`psql failed listing ${schema}'s extensions: ${run.stderr.trim()}`);
  return run.stdout.split('\n').map((name) => name.trim()).filter(Boolean).flatMap((name) => ['--extension', name]);
}

if (import.meta.main) {
  const [command, folder] = process.argv.slice(2);
  const databaseUrl = process.env.DATABASE_URL;
  if ((command !== 'save' && command !== 'restore') || !folder) {
    console.error('usage: DATABASE_URL=postgres://… npm run backup -- save|restore <folder>');
    process.exit(2);
  }
  if (!databaseUrl) {
    console.error('DATABASE_URL is required: the PostgreSQL database the services use (restore: a fresh one)');
    process.exit(2);
  }
  try {
    backup(command, folder, databaseUrl, (line) => console.log(line));
    console.log(command === 'save' ? `saved ${ServiceNames.length} schemas to ${resolve(folder)}` : `restored ${ServiceNames.length} schemas from ${resolve(folder)}`);
  } catch (err) {
    console.error(`${(err as Error).message}\nFix the cause and run it again${command === 'restore' ? ', into a fresh database' : ''}.`);
    process.exit(1);
  }
}
