/**
 * The whole app for end-to-end tests: embedded (one process), or distributed (a process per service and per gateway
 * instance) on a fresh Postgres, Redis and Kafka from the testkit. Both with a throwaway data folder. Distributed, with
 * `faults: true`, the processes reach all three through pausable proxies, so a test can cut any of them off.
 */
import type { ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startKafka, startKafkaBehindProxy, startPostgres, startRedis, startTcpProxy, testPortBase, type KafkaCluster,
  type ProxiedKafkaCluster, type RunningApp, type TcpProxy,
} from '@puente/testkit';
import { startEmbedded } from '../embedded.ts';
import { startDistributed, type DistributedOptions } from '../distributed.ts';

export interface RunningTestApp extends RunningApp {
  /** Every gateway instance's URL (`url` first). */
  gatewayUrls: string[];
  /** Every line every process wrote (distributed; empty embedded, which runs quiet). */
  log(): string[];
  /** The database the services use (distributed). */
  databaseUrl?: string;
  /** Each process by name (`exchange`, `exchange-2`, `gateway-2`, ...), the one running now (distributed). */
  processes?: Map<string, ChildProcess>;
  /** Each service's own address (distributed), for its /health and /ready. */
  serviceUrls?: Record<string, string>;
  /** The switches between the processes and their servers (distributed, started with `faults: true`). */
  faults?: Faults;
  /** Each process's /metrics by name (distributed, started with `metrics: true`; embedded with METRICS_PORT: `puente`). */
  metricsUrls?: Record<string, string>;
}

/**
 * What the app's processes reach their servers through. pause() resets every open connection and every new one
 * (clients fail at once, as when a server dies); resume() lets them in again. The test's own clients should use
 * `databaseUrl` (direct), so that they keep seeing the database while the app is cut off from it.
 */
export interface Faults {
  /** Every Kafka broker: the proxies also rewrite the addresses the brokers advertise, so no client bypasses them. */
  broker: { pause(): void; resume(): void };
  redis: TcpProxy;
  postgres: TcpProxy;
  /** The brokers as the app's processes reach them (through the proxies). */
  kafkaBrokers: string[];
  /** Redis, directly. */
  redisUrl: string;
}

export async function startEmbeddedApp(name: string, env: Record<string, string>): Promise<RunningTestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `puente-${name}-`));
  const app = await startEmbedded({ ...process.env, ...env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { quiet: true, printAdmin: () => {} });
  return {
    url: app.url, gatewayUrls: [app.url], output: () => [], log: () => [],
    ...(app.metricsUrl ? { metricsUrls: { puente: app.metricsUrl } } : {}),
    stop: async () => { await app.stop(); rmSync(dataDir, { recursive: true, force: true }); },
  };
}

export async function startDistributedApp(
  name: string, env: Record<string, string>,
  opts: Pick<DistributedOptions, 'gateways' | 'instances'> & { faults?: boolean; metrics?: boolean } = {},
): Promise<RunningTestApp> {
  const { faults: withFaults, metrics, ...distributedOptions } = opts;
  const [postgres, redis, kafka] = await Promise.all([
    startPostgres(), startRedis(), (withFaults ? startKafkaBehindProxy() : startKafka()) as Promise<KafkaCluster | ProxiedKafkaCluster>,
  ]);
  const databaseUrl = await postgres.createDatabase(name.replace(/\W/g, '_'));
  const dataDir = mkdtempSync(join(tmpdir(), `puente-${name}-`));
  const base = testPortBase();
  const output: string[] = [];
  const proxies: TcpProxy[] = [];
  const stopInfra = async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all([kafka.stop(), redis.stop(), postgres.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    let faults: Faults | undefined;
    let appDatabaseUrl = databaseUrl;
    let appRedisUrl = redis.url;
    if (withFaults && 'pause' in kafka) {
      const [toPostgres, toRedis] = [await proxyTo(databaseUrl), await proxyTo(redis.url)];
      proxies.push(toPostgres.proxy, toRedis.proxy);
      appDatabaseUrl = toPostgres.url;
      appRedisUrl = toRedis.url;
      faults = { broker: kafka, postgres: toPostgres.proxy, redis: toRedis.proxy, kafkaBrokers: kafka.brokers, redisUrl: redis.url };
    }
    const running = await startDistributed({
      env: {
        ...process.env, DATABASE_URL: appDatabaseUrl, REDIS_URL: appRedisUrl,
        KAFKA_BROKERS: kafka.brokers.join(','), PORT: String(base + 100), SERVICES_BASE_PORT: String(base), LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        // Seven services starting at once on a 2-core machine shared with other test runs can take over a minute.
        START_TIMEOUT_SECONDS: '180', ...(metrics ? { METRICS_BASE_PORT: String(base + 150) } : {}), ...env,
      },
      ...distributedOptions,
      onOutput: (child, line) => { output.push(`[${child}] ${line}`); },
      say: (line) => { output.push(`[runner] ${line}`); },
    });
    return {
      url: running.url, gatewayUrls: running.gatewayUrls, output: () => output.slice(-60), log: () => [...output], databaseUrl,
      processes: running.children, serviceUrls: running.serviceUrls as Record<string, string>, metricsUrls: running.metricsUrls,
      ...(faults ? { faults } : {}),
      stop: async () => { await running.stop(); await stopInfra(); },
    };
  } catch (err) {
    await stopInfra();
    throw new Error(`${(err as Error).message}\n${output.slice(-40).join('\n')}`);
  }
}

/** A pausable proxy in front of the server of `url` (postgres:// or redis://), and the same URL through it. */
async function proxyTo(url: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = await startTcpProxy(target.hostname, Number(target.port));
  const through = new URL(url);
  through.hostname = proxy.host;
  through.port = String(proxy.port);
  return { proxy, url: through.toString() };
}

/** After a failed test of the suite, prints the app's last output (what its processes said): where to look first. */
export function showOutputOnFailure(app: () => { output(): string[] } | undefined): void {
  afterEach((ctx) => {
    const lines = app()?.output() ?? [];
    if (ctx.task.result?.state === 'fail' && lines.length) console.warn(`the app's last output:\n${lines.join('\n')}`);
  });
}
