/**
 * Distributed mode on one machine (`npm run start:distributed`): every service and the gateway as its own
 * process, on the PostgreSQL, Kafka and Redis named by DATABASE_URL, KAFKA_BROKERS and REDIS_URL. Services listen
 * on SERVICES_BASE_PORT.. (3001-3007) of 127.0.0.1, the gateway on HOST:PORT. Secrets not set in the environment
 * are generated once and kept in DATA_DIR/secrets.json (said at start; not in production), so a service restarted
 * on its own can be given the same ones; each process is given only its own signing key and its own secrets.
 * docker-compose.yml runs the same processes in containers.
 *
 * Several instances (the `instances` and `gateways` options, e.g. `{ instances: { exchange: 2 }, gateways: 2 }`): a
 * service's instances (exchange, exchange-2, ...) share its port (REUSE_PORT: the kernel spreads connections), so
 * SERVICE_URLS keeps one URL per service; gateway instances listen on PORT, PORT+1, ... Each is restarted on a crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ServiceNames, type ServiceName } from '@puente/contracts';
import { blankAsUnset, createLogger, loadConfig, MetricsSettings, type Party } from '@puente/platform';
import { stopGracefully } from '@puente/platform/process';
import { createDatabaseIfMissing } from './database.ts';
import { runnerDefaults } from './runner-env.ts';
import { runnerSecrets, secretsFile } from './secrets.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** A process that ran this long before it died starts its backoff over. */
const RESTART_RESET_MS = 60_000;

const Settings = z.object({
  DATABASE_URL: z.url({ message: 'DATABASE_URL is required: the PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/puente' }),
  KAFKA_BROKERS: z.string().min(1, 'KAFKA_BROKERS is required: host:port of the Kafka brokers, comma-separated'),
  REDIS_URL: z.url({ message: 'REDIS_URL is required, e.g. redis://127.0.0.1:6379' }),
  /** The gateway's interface: this computer alone unless HOST says otherwise (services are always on 127.0.0.1). */
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).default(8080),
  DATA_DIR: z.string().default('.data'),
  SERVICES_BASE_PORT: z.coerce.number().int().min(1024).default(3001),
  LOG_LEVEL: z.string().default('info'),
  /** How long each process may take to say it is ready before the runner gives up (a misconfiguration, usually). */
  START_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60),
  /** When set, each process serves /metrics on a port of its own from here up (in launch order, said at start). */
  METRICS_BASE_PORT: blankAsUnset(z.coerce.number().int().min(1024).max(65535).optional()),
  METRICS_HOST: MetricsSettings.shape.METRICS_HOST,
});

export interface DistributedOptions {
  env?: NodeJS.ProcessEnv;
  /** Which services to start (default: all seven). */
  services?: readonly ServiceName[];
  gateway?: boolean;
  /** How many gateway instances (default 1); the others listen on PORT+1, PORT+2, ... sharing Redis and Kafka. */
  gateways?: number;
  /** How many instances of each service (default 1): `exchange`, `exchange-2`, ... sharing its port. */
  instances?: Partial<Record<ServiceName, number>>;
  /** Where each child's output goes (default: prefixed lines on this process's stdout). */
  onOutput?: (name: string, line: string) => void;
  say?: (line: string) => void;
}

export interface Distributed {
  url: string;
  /** Every gateway instance's URL, `url` first. */
  gatewayUrls: string[];
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** Each process's /metrics by name (`exchange`, `exchange-2`, `gateway`, ...), when METRICS_BASE_PORT is set. */
  metricsUrls: Record<string, string>;
  children: Map<string, ChildProcess>;
  stop(): Promise<void>;
}

export async function startDistributed(opts: DistributedOptions = {}): Promise<Distributed> {
  const settings = loadConfig(Settings, opts.env ?? process.env);
  const say = opts.say ?? ((l: string) => process.stdout.write(`• ${l}\n`));
  const dataDir = resolve(settings.DATA_DIR);
  const given = opts.env ?? process.env;
  // Each process is given its own signing key and the secrets of its own purposes, no other.
  const secrets = runnerSecrets({
    ...given, ...runnerDefaults(given, { dataDir, host: settings.HOST, port: settings.PORT }), ATTACHMENT_STORAGE_DIR: given.ATTACHMENT_STORAGE_DIR ?? join(dataDir, 'attachments'),
  }, dataDir);
  if (given.NODE_ENV !== 'production') say(`secrets not set in the environment are kept in ${secretsFile(dataDir)}`);
  if (await createDatabaseIfMissing(settings.DATABASE_URL)) say(`created the database ${new URL(settings.DATABASE_URL).pathname.slice(1)}`);
  const onOutput = opts.onOutput ?? ((name: string, line: string) => process.stdout.write(`[${name}] ${line}\n`));
  const services = opts.services ?? ServiceNames;
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  services.forEach((name) => {
    serviceUrls[name] = `http://127.0.0.1:${settings.SERVICES_BASE_PORT + ServiceNames.indexOf(name)}`;
  });
  const SERVICE_URLS = Object.entries(serviceUrls).map(([k, v]) => `${k}=${v}`).join(',');
  const children = new Map<string, ChildProcess>();
  const node = process.execPath;
  const metricsUrls: Record<string, string> = {};
  /** A process keeps its metrics port across restarts; without METRICS_BASE_PORT none serves metrics ('' is unset). */
  const metricsEnv = (name: string): { METRICS_PORT: string; METRICS_HOST?: string } => {
    if (settings.METRICS_BASE_PORT === undefined) return { METRICS_PORT: '' };
    const port = metricsUrls[name] ? new URL(metricsUrls[name]).port : String(settings.METRICS_BASE_PORT + Object.keys(metricsUrls).length);
    metricsUrls[name] = `http://127.0.0.1:${port}/metrics`;
    return { METRICS_PORT: port, METRICS_HOST: settings.METRICS_HOST };
  };

  let stopping = false;
  const restarts = new Map<string, { attempt: number; timer?: NodeJS.Timeout }>();

  const launch = (name: string, party: Party, script: string, extra: Record<string, string>) => {
    const startedAt = Date.now();
    // The preload starts tracing before the process's modules load, when OTEL_EXPORTER_OTLP_ENDPOINT is set.
    const child = spawn(node, ['--import', '@puente/platform/preload', script], {
      cwd: root,
      env: { ...secrets.envOf(party), SERVICE_URLS, LOG_LEVEL: settings.LOG_LEVEL, HOST: '127.0.0.1', ...metricsEnv(name), ...extra },
      // A service says on this channel that it is ready (packages/platform/src/process.ts).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream?.on('data', (chunk: Buffer) => {
        buf += chunk.toString();
        let i;
        while ((i = buf.indexOf('\n')) >= 0) { onOutput(name, buf.slice(0, i)); buf = buf.slice(i + 1); }
      });
    }
    children.set(name, child);
    // A process that dies on its own is started again after a growing pause (1 s, 2 s, 4 s … 30 s; back to 1 s once
    // it has run for a minute), so one crash is not an outage until somebody notices.
    child.once('exit', (code, signal) => {
      // A clean exit or a stop asked for (Ctrl+C reaches the whole process group) is not a crash.
      const asked = code === 0 || signal === 'SIGINT' || signal === 'SIGTERM';
      if (stopping || asked || children.get(name) !== child) return;
      const state = restarts.get(name) ?? { attempt: 0 };
      state.attempt = Date.now() - startedAt > RESTART_RESET_MS ? 1 : state.attempt + 1;
      const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (state.attempt - 1));
      say(`${name} stopped (${signal ?? `exit code ${code}`}); restarting it in ${delay / 1000} s (attempt ${state.attempt})`);
      state.timer = setTimeout(() => { if (!stopping) launch(name, party, script, extra); }, delay);
      restarts.set(name, state);
    });
    return child;
  };

  const stop = async () => {
    stopping = true;
    for (const { timer } of restarts.values()) clearTimeout(timer);
    await Promise.all([...children.values()].map((c) => new Promise<void>((resolve) => {
      if (c.exitCode !== null || c.signalCode !== null) return resolve();
      const t = setTimeout(() => { c.kill('SIGKILL'); }, 10_000);
      c.once('exit', () => { clearTimeout(t); resolve(); });
      c.kill('SIGTERM');
    })));
  };

  const instancesOf = (name: ServiceName) => opts.instances?.[name] ?? 1;
  const startInstance = (name: ServiceName, instance: number) => {
    const child = instance === 1 ? name : `${name}-${instance}`;
    const shared: Record<string, string> = instancesOf(name) > 1 ? { REUSE_PORT: 'true' } : {};
    launch(child, name, `services/${name}/src/server.ts`, { PORT: String(new URL(serviceUrls[name]!).port), ...shared });
    return untilSaysReady(child, children.get(child)!, settings.START_TIMEOUT_SECONDS * 1000);
  };

  try {
    await Promise.all(services.map((name, i) => {
      say(`starting service ${i + 1}/${services.length}: ${name} on ${serviceUrls[name]}`);
      return startInstance(name, 1);
    }));
    // The others once the first has migrated the service's schema: two instances migrating at once would collide.
    await Promise.all(services.flatMap((name) => Array.from({ length: instancesOf(name) - 1 }, (_, i) => {
      say(`starting ${name} instance ${i + 2} on ${serviceUrls[name]} (a shared port)`);
      return startInstance(name, i + 2);
    })));
    const gatewayUrls: string[] = [];
    if (opts.gateway ?? true) {
      const host = ['0.0.0.0', '::'].includes(settings.HOST) ? '127.0.0.1' : settings.HOST.includes(':') ? `[${settings.HOST}]` : settings.HOST;
      for (let i = 0; i < (opts.gateways ?? 1); i++) {
        const name = i === 0 ? 'gateway' : `gateway-${i + 1}`;
        const port = settings.PORT + i;
        say(`starting ${name} on ${settings.HOST}:${port}`);
        launch(name, 'gateway', 'gateway/src/server.ts', { PORT: String(port), HOST: settings.HOST });
        gatewayUrls.push(`http://${host}:${port}`);
        await waitReady(name, `${gatewayUrls[i]}/health`, children.get(name)!, settings.START_TIMEOUT_SECONDS * 1000);
      }
    }
    for (const [name, url] of Object.entries(metricsUrls)) say(`metrics of ${name} at ${url}`);
    return { url: gatewayUrls[0] ?? '', gatewayUrls, serviceUrls, metricsUrls, children, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Until a service process says it is ready: the port it shares with its other instances may answer for another. */
function untilSaysReady(name: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    };
    const onMessage = (message: { type?: string }) => { if (message?.type === 'ready') settle(); };
    const onExit = (code: number | null, signal: string | null) => {
      settle(new Error(`${name} exited (${signal ?? `code ${code}`}) before it was ready; see its output above`));
    };
    const timer = setTimeout(() => {
      settle(new Error(`${name} was not ready within ${timeoutMs / 1000} s; check DATABASE_URL, KAFKA_BROKERS and REDIS_URL`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
  });
}

async function waitReady(name: string, url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready; see its output above`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} was not ready at ${url} within ${timeoutMs / 1000} s; check DATABASE_URL, KAFKA_BROKERS and REDIS_URL`);
}

if (import.meta.main) {
  try {
    const d = await startDistributed();
    process.stdout.write(`\nPuente (distributed) is running at ${d.url}. Health: ${d.url}/api/health. Ctrl+C stops every process.\n`);
    stopGracefully(createLogger({ name: 'puente', level: 'warn' }), () => d.stop());
  } catch (err) {
    process.stderr.write(`\nPuente (distributed) could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
