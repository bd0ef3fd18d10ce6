import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { infraAvailability, startKafka, startPostgres, startRedis } from './index.ts';

const saved = { ...process.env };
afterEach(() => {
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS']) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

describe('infraAvailability', () => {
  it('prefers the URL from the environment', () => {
    process.env.DATABASE_URL = 'postgres://u@db.example:5432/app';
    process.env.REDIS_URL = 'redis://cache.example:6379';
    process.env.KAFKA_BROKERS = 'k1:9092,k2:9092';
    for (const kind of ['postgres', 'redis', 'kafka'] as const) {
      expect(infraAvailability(kind)).toMatchObject({ available: true, how: 'env' });
    }
    expect(infraAvailability('postgres').hint).toContain('DATABASE_URL');
  });

  it('is cheap: synchronous, well under a millisecond once warm', () => {
    infraAvailability('postgres');
    const started = performance.now();
    for (let i = 0; i < 100; i++) {
      infraAvailability('postgres');
      infraAvailability('redis');
      infraAvailability('kafka');
    }
    expect((performance.now() - started) / 100).toBeLessThan(1);
  });

  it('reports every kind with a consistent shape', () => {
    for (const kind of ['postgres', 'redis', 'kafka'] as const) {
      const a = infraAvailability(kind);
      expect(['env', 'local', 'container', 'none']).toContain(a.how);
      expect(a.available).toBe(a.how !== 'none');
      expect(a.hint.length).toBeGreaterThan(0);
    }
  });
});

describe('servers given through the environment', () => {
  it('KAFKA_BROKERS and REDIS_URL are used as given', async () => {
    process.env.KAFKA_BROKERS = ' k1:9092, k2:9093 ,';
    process.env.REDIS_URL = 'redis://cache.example:6379';
    const kafka = await startKafka();
    expect(kafka.brokers).toEqual(['k1:9092', 'k2:9093']);
    await kafka.stop();
    const redis = await startRedis();
    expect(redis.url).toBe('redis://cache.example:6379');
    await redis.stop();
  });

  it.runIf(infraAvailability('postgres').available)(
    'DATABASE_URL: createDatabase makes fresh databases there, stop() drops them and leaves the server running',
    async () => {
      const real = await startPostgres();
      try {
        process.env.DATABASE_URL = real.url;
        const external = await startPostgres();
        expect(external.url).toBe(real.url);
        const url = await external.createDatabase('envdb');
        const name = new URL(url).pathname.slice(1);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query('create table t (x int)');
        await client.end();
        await external.stop();
        const admin = new pg.Client({ connectionString: real.url });
        await admin.connect();
        const { rows } = await admin.query('select datname from pg_database where datname = $1', [name]);
        await admin.end();
        expect(rows).toEqual([]); // dropped, and the server still answers
      } finally {
        await real.stop();
      }
    },
    30_000,
  );
});

// describeWithInfra, exercised for real: a nested vitest run of fixtures/needs-kafka.fixture.ts with an empty PATH,
// so kcat is not found and (with no KAFKA_BROKERS and no Docker) Kafka is unavailable.
describe.runIf(infraAvailability('kafka').how !== 'container')('describeWithInfra when infrastructure is missing', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const vitestCli = join(here, '../../../node_modules/vitest/vitest.mjs');
  function runFixture(env: Record<string, string>): Promise<{ code: number; output: string }> {
    const cleanEnv: Record<string, string> = { HOME: process.env.HOME ?? '/tmp', PATH: '/nonexistent', ...env };
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [vitestCli, 'run', '--config', join(here, 'fixtures/vitest.config.ts'), '--reporter', 'verbose'],
        { env: cleanEnv, encoding: 'utf8', timeout: 30_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      );
    });
  }

  it('skips with an install hint locally', async () => {
    const { code, output } = await runFixture({});
    expect(output).toContain('apt-get install postgresql redis-server kcat');
    expect(output).toMatch(/skipped|↓/);
    expect(code).toBe(0);
  }, 30_000);

  it('fails under CI=true instead of skipping', async () => {
    const { code, output } = await runFixture({ CI: 'true' });
    expect(output).toContain('apt-get install postgresql redis-server kcat');
    expect(output).toMatch(/requires kafka/);
    expect(code).not.toBe(0);
  }, 30_000);
});
