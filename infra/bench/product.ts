/**
 * Puente as the benchmark runs it: embedded (`npm start`, one process) or distributed (a process per service and
 * gateway on a throwaway PostgreSQL, Redis and Kafka-protocol broker from the testkit), on a fresh data folder.
 * Each start is timed to a healthy /api/health; the processes are known by pid, so their memory can be read.
 * Between starts the database can be seeded (seed.ts) while nothing else writes to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { HealthResponse } from '@puente/contracts';
import { startKafka, startPostgres, startRedis, testPortBase, type KafkaCluster, type PostgresServer, type RedisServer } from '@puente/testkit';
import { startDistributed, type Distributed } from '../distributed.ts';
import { secretsFile } from '../secrets.ts';
import { BenchFailure, sleep, step } from './load.ts';

export type Mode = 'embedded' | 'distributed';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const ADMIN = { email: 'bench-admin@puente.test', password: 'bench admin password', referralCode: 'BENCH-CODE' };

/** Settings every start gets: an admin to refer the seeded users, and room for the bench's own logins. */
const BENCH_ENV = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.referralCode,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  RATE_LIMIT_LOGIN_IP: '100000/15m',
  // As the deployments set it (docker-compose, infra/k8s): past 0.9 busy, a gateway serves no new user's polls.
  ADMISSION_EVENT_LOOP_UTILIZATION: '0.9',
};
/** The product's processes still running: killed if the bench itself ends without stopping them. */
const running = new Set<() => Map<string, number>>();
process.once('exit', () => {
  for (const pids of running) for (const pid of pids().values()) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
});

/** BENCH_CPU_PROFILE=<folder>: the embedded process writes a V8 CPU profile there when it stops (profile.ts reads it). */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;

export interface Secrets { sessionSecret: string }

export interface Product {
  mode: Mode;
  url: string;
  /** Every gateway instance (distributed), `url` first. */
  gatewayUrls: string[];
  /** Milliseconds from the start command to a healthy /api/health. */
  startedInMs: number;
  secrets: Secrets;
  /** Pids of the product's processes (the load generator is not among them), by name. */
  pids(): Map<string, number>;
  stop(): Promise<void>;
}

/** What stays between the starts of one mode: the data folder and, distributed, the servers. */
export interface StartOptions {
  /**
   * Distributed: how long a Kafka fetch may wait. librdkafka's mock broker answers a fetch only once this is over,
   * even when data came meanwhile (a real broker answers at once, and waits the whole time only when idle): a long
   * wait keeps the processes quiet at rest, a short one lets events through quickly. No one setting gives both.
   */
  kafkaFetchMaxWaitMs?: number;
  /** Distributed: gateway instances (one per CPU lets the machine's cores share the polls). */
  gateways?: number;
}

export interface Site {
  mode: Mode;
  dataDir: string;
  start(opts?: StartOptions): Promise<Product>;
  /** PostgreSQL of the services (distributed) — embedded keeps its database in dataDir. */
  databaseUrl?: string;
  redisUrl?: string;
  dispose(): Promise<void>;
}

export async function openSite(mode: Mode): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), `puente-bench-${mode}-`));
  if (mode === 'embedded') {
    return {
      mode, dataDir,
      start: () => startEmbeddedProduct(dataDir),
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  let postgres: PostgresServer | undefined, redis: RedisServer | undefined, kafka: KafkaCluster | undefined;
  try {
    [postgres, redis, kafka] = await Promise.all([startPostgres(), startRedis(), startKafka()]);
  } catch (err) {
    await Promise.all([postgres?.stop(), redis?.stop(), kafka?.stop()]);
    throw new BenchFailure(`could not start the distributed mode's servers: ${(err as Error).message}`,
      'Install them (Debian: apt-get install postgresql redis-server kcat) or set DATABASE_URL, REDIS_URL and KAFKA_BROKERS; or run --mode embedded.');
  }
  const databaseUrl = await postgres.createDatabase('bench');
  const servers = { postgres, redis, kafka };
  return {
    mode, dataDir, databaseUrl, redisUrl: redis.url,
    start: (opts = {}) => startDistributedProduct(dataDir, databaseUrl, servers.redis.url, servers.kafka.brokers, opts),
    dispose: async () => {
      await Promise.all([servers.kafka.stop(), servers.redis.stop(), servers.postgres.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function readSecrets(dataDir: string): Secrets {
  const kept = JSON.parse(readFileSync(secretsFile(dataDir), 'utf8')) as Secrets;
  return { sessionSecret: kept.sessionSecret };
}

async function waitHealthy(url: string, exited: () => string | undefined, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const gone = exited();
    if (gone) throw new BenchFailure(`Puente stopped before it was healthy (${gone})`, 'Rerun with LOG_LEVEL=info to see why.');
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  throw new BenchFailure(`Puente was not healthy at ${url} within ${timeoutMs / 1000} s`, 'Rerun with LOG_LEVEL=info to see the services\' logs.');
}

/** The node processes under a pid (npm start runs node under npm): Linux /proc. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const walk = (p: number) => {
    let children: string[] = [];
    try {
      children = readdirSync(`/proc/${p}/task`).flatMap((t) => readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
    } catch { /* gone */ }
    for (const c of children.map(Number)) { found.push(c); walk(c); }
  };
  walk(pid);
  return found;
}

const argvOf = (pid: number): string[] => {
  try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'); } catch { return []; }
};

/** `npm start` itself (the web app's build, then the embedded process), as a new user runs it. */
async function startEmbeddedProduct(dataDir: string): Promise<Product> {
  const port = testPortBase() + 150;
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const output: string[] = [];
  // Profiled, the process is started without npm (Node refuses --cpu-prof in NODE_OPTIONS); the web app is built.
  const [command, argv] = PROFILE_DIR
    ? [process.execPath, ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, 'infra/embedded.ts']]
    : ['npm', ['start', '--silent']];
  const child: ChildProcess = spawn(command, argv, {
    cwd: root, env: { ...process.env, ...BENCH_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const s of [child.stdout, child.stderr]) s?.on('data', (c: Buffer) => { output.push(c.toString()); if (output.length > 200) output.shift(); });
  try {
    await waitHealthy(url, () => (child.exitCode !== null ? `exit code ${child.exitCode}: ${output.join('').slice(-2000)}` : undefined));
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
  const startedInMs = performance.now() - started;
  // The node process itself (npm runs it through a shell whose command line names the script too).
  const embeddedPid = () => [child.pid!, ...descendants(child.pid!)].find((p) => {
    // The script comes after node's own options (`--import @puente/platform/preload`).
    const [program, ...args] = argvOf(p);
    return program?.endsWith('node') && args.some((arg) => arg.endsWith('infra/embedded.ts'));
  });
  const pids = () => {
    const pid = embeddedPid();
    return new Map(pid ? [['puente (embedded)', pid]] : []);
  };
  running.add(pids);
  return {
    mode: 'embedded', url, gatewayUrls: [url], startedInMs, secrets: readSecrets(dataDir), pids,
    stop: async () => {
      await stopChild(child, embeddedPid());
      running.delete(pids);
    },
  };
}

/** Stops npm start the way Ctrl+C does: SIGINT to the embedded process, which stops gracefully; npm follows. */
async function stopChild(child: ChildProcess, pid: number | undefined): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (pid) process.kill(pid, 'SIGINT');
  else child.kill('SIGINT');
  const timer = setTimeout(() => { if (pid) process.kill(pid, 'SIGKILL'); child.kill('SIGKILL'); }, 30_000);
  await exited;
  clearTimeout(timer);
}

async function startDistributedProduct(dataDir: string, databaseUrl: string, redisUrl: string, brokers: string[], opts: StartOptions): Promise<Product> {
  const base = testPortBase();
  const started = performance.now();
  const output: string[] = [];
  let distributed: Distributed;
  try {
    distributed = await startDistributed({
      env: {
        ...process.env, ...BENCH_ENV, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, KAFKA_BROKERS: brokers.join(','),
        PORT: String(base + 100), SERVICES_BASE_PORT: String(base), DATA_DIR: dataDir, HOST: '127.0.0.1',
        KAFKA_FETCH_MAX_WAIT_MS: String(opts.kafkaFetchMaxWaitMs ?? 500),
      },
      gateways: opts.gateways ?? 1,
      onOutput: (name, line) => { output.push(`[${name}] ${line}`); if (output.length > 200) output.shift(); if (process.env.LOG_LEVEL) console.log(`[${name}] ${line}`); },
      say: () => {},
    });
  } catch (err) {
    throw new BenchFailure(`distributed mode did not start: ${(err as Error).message}\n${output.slice(-30).join('\n')}`, 'Rerun with LOG_LEVEL=info to see every process.');
  }
  await waitHealthy(distributed.url, () => undefined);
  const startedInMs = performance.now() - started;
  const pids = () => new Map([...distributed.children].flatMap(([name, c]) => (c.pid && c.exitCode === null ? [[name, c.pid] as [string, number]] : [])));
  running.add(pids);
  return {
    mode: 'distributed', url: distributed.url, gatewayUrls: distributed.gatewayUrls, startedInMs, secrets: readSecrets(dataDir), pids,
    stop: async () => {
      await distributed.stop();
      running.delete(pids);
    },
  };
}

/** CPU seconds a process has used (Linux /proc: user + system, in clock ticks of 1/100 s), or NaN once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds the whole machine has been busy (Linux /proc/stat: every CPU, all but idle and I/O wait). */
function machineBusySeconds(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
}

/**
 * CPU seconds used so far by each of the product's processes, by this bench process (the load generator), and by
 * the whole machine (so what the servers — PostgreSQL, Redis, the broker — and anything else took shows too).
 */
export function cpuByProcess(product: Product): Record<string, number> {
  const own = process.cpuUsage();
  return {
    ...Object.fromEntries([...product.pids()].map(([name, pid]) => [name, cpuSeconds(pid)])),
    'load generator (bench)': (own.user + own.system) / 1e6,
    'whole machine': machineBusySeconds(),
  };
}

/** The share of a CPU the product's processes use together over `seconds` (e.g. at rest: timers, the Kafka fetches). */
export async function cpuShare(product: Product, seconds = 5): Promise<number> {
  const total = () => [...product.pids().values()].reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0);
  const before = total();
  await sleep(seconds * 1000);
  return (total() - before) / seconds;
}

/**
 * Waits until the product has settled: its processes together below `busy` of a CPU for `quietSeconds` in a row.
 * After a start on seeded data, every service works through the users' registration events for a while; measuring
 * meanwhile would measure that.
 */
export async function settled(product: Product, opts: { busy?: number; quietSeconds?: number; timeoutSeconds?: number; orGoOn?: boolean } = {}): Promise<number> {
  const { busy = 0.15, quietSeconds = 5, timeoutSeconds = 600 } = opts;
  const started = performance.now();
  const total = () => [...product.pids().values()].reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0);
  let quiet = 0;
  let last = total();
  while (quiet < quietSeconds) {
    await sleep(1_000);
    const now = total();
    const used = now - last;
    last = now;
    quiet = used < busy ? quiet + 1 : 0;
    if (process.stdout.isTTY) process.stdout.write(`\r  settling: ${(used * 100).toFixed(0)} % of a CPU   `);
    if (performance.now() - started > timeoutSeconds * 1000) {
      if (opts.orGoOn) {
        step(`still at ${(used * 100).toFixed(0)} % of a CPU after ${timeoutSeconds} s: going on`);
        break;
      }
      throw new BenchFailure(`the product was still busy ${timeoutSeconds} s after starting (${(used * 100).toFixed(0)} % of a CPU)`, 'Rerun with LOG_LEVEL=info to see what it is doing.');
    }
  }
  if (process.stdout.isTTY) process.stdout.write('\r');
  return (performance.now() - started) / 1000;
}

/**
 * Waits until every gateway's admission door is open (/api/health's `users.limit` null), so that a target begins on a
 * calm product rather than on the door a load before it shut (target 1's closed loop of 50 connections shuts it; the
 * cold arrivals after it once met it almost shut). Returns the seconds waited (0: open at once).
 */
export async function doorsOpen(product: Product, timeoutSeconds = 60): Promise<number> {
  const started = performance.now();
  let waited = false;
  for (;;) {
    const limits = await Promise.all(product.gatewayUrls.map(async (url) => {
      const health = HealthResponse.parse(await (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) })).json());
      return health.users?.limit ?? null;
    }));
    const shut = limits.filter((limit) => limit !== null);
    if (shut.length === 0) return waited ? (performance.now() - started) / 1000 : 0;
    waited = true;
    if (performance.now() - started > timeoutSeconds * 1000) {
      throw new BenchFailure(`a gateway's admission door was still shut ${timeoutSeconds} s after the load (limits ${shut.join(', ')})`,
        'The door opens once the event loop is calm: see what keeps the gateway busy (BENCH_CPU_PROFILE).');
    }
    await sleep(500);
  }
}

/** Resident memory of a process in MiB (Linux /proc), or NaN once it is gone. */
export function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
