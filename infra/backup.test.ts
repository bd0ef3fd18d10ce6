/**
 * Backup and restore: after a whole exchange in distributed mode, `npm run backup -- save` dumps each
 * service schema, `restore` loads them into a fresh database, and that database holds every user, bank account,
 * request, match, rating and notification — every row of every service table — the original holds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pg from 'pg';
import { ExchangeMatch, ExchangeRequest, ServiceNames } from '@puente/contracts';
import { appClient, describeWithInfra } from '@puente/testkit';
import { startDistributedApp, type RunningTestApp } from './testing/running-app.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'BACKUP-CODE' };

/** Rows per service table (platform tables included: the outbox and inbox are part of a service's state). */
async function rowCounts(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema = any($1) order by 1, 2`, [[...ServiceNames]]);
    const counts: Record<string, number> = {};
    for (const { schema, name } of tables) {
      counts[`${schema}.${name}`] = Number((await client.query(`select count(*) as n from "${schema}"."${name}"`)).rows[0].n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

const runBackup = (command: 'save' | 'restore', folder: string, databaseUrl: string) =>
  spawnSync(process.execPath, ['infra/scripts/backup.ts', command, folder], { cwd: root, encoding: 'utf8', env: { ...process.env, DATABASE_URL: databaseUrl } });

describeWithInfra(['postgres', 'redis', 'kafka'], 'backup and restore (distributed)', () => {
  let app: RunningTestApp;
  const folder = mkdtempSync(join(tmpdir(), 'puente-backup-'));
  beforeAll(async () => {
    app = await startDistributedApp('backup', {
      ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
      BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('restores into a fresh database every row the services hold after a whole exchange', async () => {
    const client = appClient(app.url);
    const ana = await client.signUp({ email: 'ana@puente.test', password: 'password1', firstName: 'Ana', lastName: 'Diaz' }, ADMIN.code);
    const bruno = await client.signUp({ email: 'bruno@puente.test', password: 'password2', firstName: 'Bruno', lastName: 'Silva' }, ADMIN.code);
    for (const [user, n] of [[ana, 1], [bruno, 2]] as const) {
      await client.json('/api/bank-accounts', 201, { cookie: user.cookie, body: { currency: 'GBP', bankName: 'Monzo', accountNumber: `${n}1926819`, accountHolder: user.firstName, sortCode: '04-00-04' } });
      await client.json('/api/bank-accounts', 201, { cookie: user.cookie, body: { currency: 'CLP', bankName: 'BancoEstado', accountNumber: `${n}87654321`, accountHolder: user.firstName, rut: '12.345.678-5', accountType: 'vista', email: `${user.firstName}@example.cl` } });
    }
    const viaBus = { timeout: 60_000, interval: 250 };
    const request = ExchangeRequest.parse(await vi.waitFor(() => client.json('/api/exchange-requests', 201, { cookie: ana.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } }), viaBus));
    const match = ExchangeMatch.parse(await vi.waitFor(() => client.json('/api/exchange-matches', 201, { cookie: bruno.cookie, body: { exchangeRequestId: request.id } }), viaBus));
    await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
    await client.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bruno.cookie });
    await vi.waitFor(() => client.json('/api/ratings', 201, { cookie: ana.cookie, body: { exchangeMatchId: match.id, toUserId: bruno.id, rating: 5 } }), viaBus);
    const before = await vi.waitFor(async () => {
      const counts = await rowCounts(app.databaseUrl!);
      for (const table of ['identity.user_account', 'accounts.bank_account', 'exchange.exchange_request', 'exchange.exchange_match', 'rating.rating', 'notification.notification']) {
        expect(counts[table], table).toBeGreaterThan(0);
      }
      return counts;
    }, viaBus);

    const saved = runBackup('save', folder, app.databaseUrl!);
    expect(saved.status, saved.stderr).toBe(0);
    expect(saved.stdout).toContain(`saved ${ServiceNames.length} schemas`);
    expect(readdirSync(folder).sort()).toEqual(ServiceNames.map((s) => `${s}.sql`).sort());

    // A fresh database on the same server.
    const admin = new pg.Client({ connectionString: app.databaseUrl });
    await admin.connect();
    const fresh = `restored_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${fresh}`);
    await admin.end();
    const freshUrl = app.databaseUrl!.replace(/\/[^/?]+(\?|$)/, `/${fresh}$1`);

    // Writes kept going meanwhile (relays, consumers, jobs), so the dump was taken somewhere between the counts read
    // before it and after it: each restored table holds a count within that range (tables only grow or only shrink
    // in that time).
    const atDump = await rowCounts(app.databaseUrl!);
    const restored = runBackup('restore', folder, freshUrl);
    expect(restored.status, restored.stderr).toBe(0);
    const after = await rowCounts(freshUrl);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const [table, rows] of Object.entries(after)) {
      const [least, most] = [Math.min(before[table]!, atDump[table]!), Math.max(before[table]!, atDump[table]!)];
      expect(rows, `${table}: ${least}..${most} rows at the dump`).toBeGreaterThanOrEqual(least);
      expect(rows, `${table}: ${least}..${most} rows at the dump`).toBeLessThanOrEqual(most);
    }
    console.log(`backup: ${Object.keys(after).length} tables, ${Object.values(after).reduce((a, b) => a + b, 0)} rows restored`);

    // A restore into a database that already has the schemas is refused, and says why.
    const again = runBackup('restore', folder, freshUrl);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/psql failed for identity: .*already exists/);
  }, 240_000);
});
