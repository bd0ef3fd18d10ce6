import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pg from 'pg';
import { ReadyResponse, ServiceNames } from '@puente/contracts';
import { generateSigningKeys, internalAuth, INTERNAL_TOKEN_HEADER, keyringOf, publicKeyText, signingKeyFrom, type Party } from '@puente/platform';
import { describeWithInfra, overallHealth, startKafka, startPostgres, startRedis, testPortBase, type KafkaCluster, type PostgresServer, type RedisServer } from '@puente/testkit';
import { startDistributed, type Distributed } from './distributed.ts';

describeWithInfra(['postgres', 'redis', 'kafka'], 'distributed smoke test: the gateway and two services as separate processes', () => {
  let postgres: PostgresServer;
  let redis: RedisServer;
  let kafka: KafkaCluster;
  let databaseUrl: string;
  let running: Distributed | undefined;
  const output: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'puente-distributed-'));

  beforeAll(async () => {
    [postgres, redis, kafka] = await Promise.all([startPostgres(), startRedis(), startKafka()]);
    databaseUrl = await postgres.createDatabase('distributed');
    const base = testPortBase();
    running = await startDistributed({
      env: {
        ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url, KAFKA_BROKERS: kafka.brokers.join(','),
        PORT: String(base + 100), SERVICES_BASE_PORT: String(base), LOG_LEVEL: 'warn', DATA_DIR: dataDir, HOST: '127.0.0.1',
        SERVICE_SIGNING_KEY: undefined, SERVICE_PUBLIC_KEYS: undefined, SESSION_SECRET: undefined, BANK_ENCRYPTION_KEYS: undefined,
        ADMIN_EMAIL: 'root@puente.test', ADMIN_PASSWORD: 'correct horse battery', ADMIN_REFERRAL_CODE: 'SMOKE-TEST',
        // A restarted service is ready once its consumer group has dropped the killed member: 3 s, not the default 30 s.
        KAFKA_SESSION_TIMEOUT_MS: '3000',
      },
      services: ['identity', 'subscription'],
      gateway: true,
      onOutput: (name, line) => output.push(`[${name}] ${line}`),
      say: (line) => output.push(`[runner] ${line}`),
    });
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await Promise.all([kafka?.stop(), redis?.stop(), postgres?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates the secrets once into DATA_DIR/secrets.json, readable by this user alone, and the processes use them', async () => {
    const file = join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { signingKeys } = JSON.parse(readFileSync(file, 'utf8')) as { signingKeys: Record<Party, string> };
    // A token signed with the gateway's kept key is accepted: a service restarted by hand can be given the same keys.
    const token = await internalAuth('gateway', keyringOf(signingKeys)).sign({ kind: 'user', userId: 1, role: 'admin' }, 'identity');
    const me = await fetch(`${running!.serviceUrls.identity}/auth/user`, { headers: { [INTERNAL_TOKEN_HEADER]: token } });
    expect(me.status).toBe(200);
    const forged = await internalAuth('gateway', keyringOf(generateSigningKeys().signingKeys)).sign({ kind: 'user', userId: 1, role: 'admin' }, 'identity');
    expect((await fetch(`${running!.serviceUrls.identity}/auth/user`, { headers: { [INTERNAL_TOKEN_HEADER]: forged } })).status).toBe(401);
  });

  it('gives each process its own signing key and the secrets of its own purposes, no other', async () => {
    const { signingKeys } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { signingKeys: Record<Party, string> };
    const environ = (name: string) => new Map(readFileSync(`/proc/${running!.children.get(name)!.pid}/environ`, 'utf8')
      .split('\0').filter(Boolean).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    const secrets = ['SESSION_SECRET', 'BANK_ENCRYPTION_KEYS', 'TOTP_ENCRYPTION_KEYS', 'OAUTH_COOKIE_SECRET', 'LOGIN_CHALLENGE_SECRET', 'ATTACHMENT_ENCRYPTION_KEYS', 'ID_DOCUMENT_KEYS'];
    const own: Record<string, string[]> = {
      gateway: ['SESSION_SECRET'], identity: ['TOTP_ENCRYPTION_KEYS', 'OAUTH_COOKIE_SECRET', 'LOGIN_CHALLENGE_SECRET', 'ID_DOCUMENT_KEYS'], subscription: [],
    };
    for (const [name, mine] of Object.entries(own)) {
      const env = environ(name);
      expect(secrets.filter((s) => env.has(s)), name).toEqual(mine);
      expect(env.get('SERVICE_SIGNING_KEY'), name).toBe(signingKeys[name as Party]);
      expect(env.has('INTERNAL_TOKEN_SECRET'), name).toBe(false);
      expect(env.get('SERVICE_PUBLIC_KEYS'), name).toContain(`${name}=${publicKeyText(signingKeyFrom(signingKeys[name as Party]))}`);
    }
  });

  it('runs each service in its own process, ready on real Postgres, Kafka and Redis', async () => {
    // Serving comes first; joining the group and registering the schedules follow within moments.
    for (const [name, url] of Object.entries(running!.serviceUrls)) {
      await vi.waitFor(async () => {
        const res = await fetch(`${url}/ready`);
        expect({ name, body: ReadyResponse.parse(await res.json()) }).toEqual({ name, body: { status: 'ok', checks: { database: true, bus: true, jobs: true, schedules: true } } });
      }, { timeout: 30_000, interval: 200 });
    }
    const pids = new Set([...running!.children.values()].map((c) => c.pid));
    expect(pids.size).toBe(3); // identity, subscription, gateway
    const health = await fetch(`${running!.url}/api/health`);
    expect([health.status, overallHealth(await health.json())]).toEqual([503, {
      status: 'degraded', services: { ...Object.fromEntries(ServiceNames.map((n) => [n, 'down'])), identity: 'ok', subscription: 'ok' },
    }]);
  }, 40_000);

  it('carries an event from identity to subscription over Kafka', async () => {
    // identity seeds the admin on first start and publishes identity.user.registered through its outbox;
    // the subscription process consumes it and puts the admin on the free plan.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await vi.waitFor(async () => {
        const { rows } = await client.query('select user_id, tier from subscription.subscription');
        const admin = (await client.query(`select id from identity.user_account where email = 'root@puente.test'`)).rows[0];
        expect(rows, output.join('\n')).toEqual([{ user_id: admin?.id, tier: 'free' }]);
      }, { timeout: 60_000, interval: 250 });
      const outbox = (await client.query('select count(*)::int as pending from identity.outbox_event where published_at is null')).rows[0];
      expect(outbox.pending).toBe(0);
    } finally {
      await client.end();
    }
  }, 90_000);

  it('serves the identity API through the gateway process', async () => {
    const ok = await fetch(`${running!.url}/api/auth/verify-referral/smoke-test`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ valid: true });
    const bad = await fetch(`${running!.url}/api/auth/verify-referral/NOPE1234`);
    expect(bad.status).toBe(404);
    const missing = await fetch(`${running!.url}/api/bank-accounts`);
    expect(missing.status).toBe(503);
  });

  it('starts a service that crashed again, with a pause, and says so', async () => {
    const crashed = running!.children.get('subscription')!;
    crashed.kill('SIGKILL');
    await vi.waitFor(() => expect(output.join('\n')).toContain('subscription stopped (SIGKILL); restarting it in 1 s (attempt 1)'), { timeout: 10_000 });
    await vi.waitFor(async () => {
      const again = running!.children.get('subscription')!;
      expect(again.pid).not.toBe(crashed.pid);
      expect((await fetch(`${running!.serviceUrls.subscription}/ready`)).status).toBe(200);
    }, { timeout: 60_000, interval: 250 });
  }, 90_000);
});
