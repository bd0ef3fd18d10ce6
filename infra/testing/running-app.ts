/**
 * The whole app for end-to-end tests: embedded (one process), or distributed (a process per service and per gateway
 * instance) on a fresh Postgres, Redis and Kafka from the testkit. Both with a throwaway data folder.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKafka, startPostgres, startRedis, testPortBase } from '@puente/testkit';
import { startEmbedded } from '../embedded.ts';
import { startDistributed, type DistributedOptions } from '../distributed.ts';
import type { RunningApp } from './app-client.ts';

export interface RunningTestApp extends RunningApp {
  /** Every gateway instance's URL (`url` first). */
  gatewayUrls: string[];
  /** Every line every process wrote (distributed; empty embedded, which runs quiet). */
  log(): string[];
  /** The database the services use (distributed). */
  databaseUrl?: string;
  /** Each process by name (`exchange`, `exchange-2`, `gateway-2`, ...), the one running now (distributed). */
  processes?: Map<string, ChildProcess>;
}

export async function startEmbeddedApp(name: string, env: Record<string, string>): Promise<RunningTestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `puente-${name}-`));
  const app = await startEmbedded({ ...process.env, ...env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { quiet: true, printAdmin: () => {} });
  return {
    url: app.url, gatewayUrls: [app.url], output: () => [], log: () => [],
    stop: async () => { await app.stop(); rmSync(dataDir, { recursive: true, force: true }); },
  };
}

export async function startDistributedApp(
  name: string, env: Record<string, string>, opts: Pick<DistributedOptions, 'gateways' | 'instances'> = {},
): Promise<RunningTestApp> {
  const [postgres, redis, kafka] = await Promise.all([startPostgres(), startRedis(), startKafka()]);
  const databaseUrl = await postgres.createDatabase(name.replace(/\W/g, '_'));
  const dataDir = mkdtempSync(join(tmpdir(), `puente-${name}-`));
  const base = testPortBase();
  const output: string[] = [];
  const stopInfra = async () => {
    await Promise.all([kafka.stop(), redis.stop(), postgres.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const running = await startDistributed({
      env: {
        ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redis.url,
        KAFKA_BROKERS: kafka.brokers.join(','), PORT: String(base + 100), SERVICES_BASE_PORT: String(base), LOG_LEVEL: 'warn',
        DATA_DIR: dataDir, ...env,
      },
      ...opts,
      onOutput: (child, line) => { output.push(`[${child}] ${line}`); },
      say: (line) => { output.push(`[runner] ${line}`); },
    });
    return {
      url: running.url, gatewayUrls: running.gatewayUrls, output: () => output.slice(-60), log: () => [...output], databaseUrl,
      processes: running.children,
      stop: async () => { await running.stop(); await stopInfra(); },
    };
  } catch (err) {
    await stopInfra();
    throw new Error(`${(err as Error).message}\n${output.slice(-40).join('\n')}`);
  }
}
