/**
 * The README's distributed instructions, run as written: `npm run start:distributed` with only the documented URLs
 * (its database not made beforehand),
 * then one service alone on the project's Node 24 with the keys the runner kept (`npm run secrets -- env <service>`). (Tried as a new user would,
 * they once stopped on a missing BANK_ENCRYPTION_KEYS and answered every call of a restarted service with 401.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { HealthResponse } from '@puente/contracts';
import { INTERNAL_TOKEN_HEADER, internalAuth, keyringOf, type Party } from '@puente/platform';
import { databaseUrl, describeWithInfra, startKafka, startPostgres, startRedis, testPortBase, uniqueDatabaseName, type KafkaCluster, type PostgresServer, type RedisServer } from '@puente/testkit';

const root = fileURLToPath(new URL('..', import.meta.url));

describeWithInfra(['postgres', 'redis', 'kafka'], 'the README\'s distributed commands', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let kafka: KafkaCluster;
  const dataDir = mkdtempSync(join(tmpdir(), 'puente-readme-'));
  const children: ChildProcess[] = [];
  const output: string[] = [];
  let env: NodeJS.ProcessEnv;
  const base = testPortBase();

  /** Runs a command from the repository root as a shell would, keeping its output for failure messages. */
  const run = (command: string, extraEnv: NodeJS.ProcessEnv) => {
    const child = spawn('sh', ['-c', command], { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    [postgres, redis, kafka] = await Promise.all([startPostgres(), startRedis(), startKafka()]);
    // The caller's environment without any Puente setting, as a new user's shell would be.
    env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SERVICE_SIGNING_KEY|SERVICE_PUBLIC_KEYS|SESSION_SECRET|\w+_ENCRYPTION_KEYS|OAUTH_COOKIE_SECRET|LOGIN_CHALLENGE_SECRET|PORT|DATA_DIR)$/.test(k)));
  }, 60_000);
  afterAll(async () => {
    // Cleanup, not a test of shutdown: every process each command started (its whole process group) is killed.
    for (const child of children) {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    }
    await Promise.all([kafka?.stop(), redis?.stop(), postgres?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('starts everything with `npm run start:distributed` and only the three URLs (and ports, to stay off others\' toes): its database made, the web app served', async () => {
    // A database the server does not have yet, as on a fresh PostgreSQL: the runner makes it.
    const database = databaseUrl(postgres.url, uniqueDatabaseName('readme'));
    env = { ...env, DATABASE_URL: database, KAFKA_BROKERS: kafka.brokers.join(','), REDIS_URL: redis.url };
    run('npm run start:distributed', { PORT: String(base + 100), SERVICES_BASE_PORT: String(base), DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    await vi.waitFor(() => expect(output.join('')).toMatch(/Puente \(distributed\) is running at/), { timeout: 120_000, interval: 500 });
    const health = await fetch(`http://127.0.0.1:${base + 100}/api/health`);
    expect([health.status, HealthResponse.parse(await health.json()).status]).toEqual([200, 'ok']);
    expect(output.join('')).toContain(join(dataDir, 'secrets.json'));
    expect(output.join('')).toMatch(/created the database readme_/);
    // The web app, as a visitor's first page and an emailed sign-up link reach it.
    for (const path of ['/', '/register/WELCOME']) {
      const page = await fetch(`http://127.0.0.1:${base + 100}${path}`);
      expect([path, page.status, page.headers.get('content-type')]).toEqual([path, 200, 'text/html; charset=utf-8']);
      expect(await page.text()).toContain('<div id="root">');
    }
  }, 180_000);

  it('runs one service alone with the documented recipe, on Node 24, trusting the gateway\'s kept key', async () => {
    // Ctrl+C the runner first, as a user restarting one service by hand would: its consumers leave their groups, so
    // the lone service joins without waiting out a rebalance with a live member.
    const runner = children[0]!;
    process.kill(-runner.pid!, 'SIGINT');
    await new Promise((resolve) => (runner.exitCode !== null ? resolve(undefined) : runner.once('exit', resolve)));
    const { signingKeys } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { signingKeys: Record<Party, string> };
    const port = base + 50;
    run('env $(npm run --silent secrets -- env identity) node_modules/.bin/node services/identity/src/server.ts', {
      PORT: String(port), DATA_DIR: dataDir, SERVICE_URLS: `identity=http://127.0.0.1:${port}`, LOG_LEVEL: 'warn',
    });
    await vi.waitFor(async () => expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200), { timeout: 90_000, interval: 500 });
    const token = await internalAuth('gateway', keyringOf(signingKeys)).sign({ kind: 'user', userId: 1, role: 'admin' }, 'identity');
    const me = await fetch(`http://127.0.0.1:${port}/auth/user`, { headers: { [INTERNAL_TOKEN_HEADER]: token } });
    expect(me.status, output.join('').slice(-2000)).toBe(200);
  }, 150_000);
});
