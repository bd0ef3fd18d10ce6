/**
 * Embedded mode (`npm start`): the gateway and all seven services in one Node process, on embedded defaults —
 * PostgreSQL compiled to WebAssembly (PGlite, served over the Postgres wire protocol on a Unix socket in a folder
 * only this user can open, so services use the same driver as in production and no TCP port accepts a database
 * login), the in-process bus and the in-process job runner. Data lives under DATA_DIR (./.data). Nothing to
 * install beyond `npm ci`.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ServiceNames, type ServiceName } from '@puente/contracts';
import {
  adminsNeedTwoFactor, checkIndependentSecrets, ConfigError, createLogger, internalAuth, keyringOf, loadConfig, MemoryVersionStore, MetricsSettings,
  startMetrics, startService, InProcessBus, type RunningService, type Runtime,
} from '@puente/platform';
import { InProcessJobQueue } from '@puente/platform/jobs';
import { stopGracefully } from '@puente/platform/process';
import { buildGateway, gatewayOptionsFrom, gatewaySettings, LISTEN_BACKLOG } from '@puente/gateway';
import { runnerSecrets } from './secrets.ts';
import { serviceDefinitions } from './services.ts';
import { appAddress, runnerDefaults, testingAidsBanner } from './runner-env.ts';

/** The runner's settings and the gateway's (origins, proxy trust, session lifetime, rate limits, web root). */
const Settings = gatewaySettings.extend({
  /** This computer alone unless HOST says otherwise: the demo's testing aids are for whoever runs it. */
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  ...MetricsSettings.shape,
});

export interface Embedded {
  url: string;
  services: RunningService[];
  /** Where every service's and the gateway's metrics are served (one registry), when METRICS_PORT is set. */
  metricsUrl?: string;
  /** What the start banner says about the testing aids that are on (nothing when all are off). */
  testingAids: string[];
  /**
   * The admin created by this start, for the banner (shown once: nothing on later starts); its password when the demo
   * generated it. Empty when `printAdmin` was given (the lines went there).
   */
  admin: string[];
  stop(): Promise<void>;
}

const step = (message: string) => process.stdout.write(`• ${message}\n`);

/** A port free on `host` now (for PORT=0): the gateway takes it once the services, which name it in links, are up. */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done, fail) => { probe.once('error', fail); probe.listen(0, host, done); });
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

/** The name PostgreSQL clients look for in a socket directory (`host=<dir>`). */
const SOCKET_FILE = '.s.PGSQL.5432';

/**
 * The folder of the database socket: DATA_DIR/run, readable by this user alone. A socket path is limited to about
 * 100 bytes, so a deep DATA_DIR gets a private folder under the system's temp folder instead.
 */
function privateSocketDir(dataDir: string): string {
  const inData = join(dataDir, 'run');
  const dir = join(inData, SOCKET_FILE).length < 100 ? inData : mkdtempSync(join(tmpdir(), 'puente-db-'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  rmSync(join(dir, SOCKET_FILE), { force: true }); // left behind by a run that was killed
  return dir;
}

export async function startEmbedded(env: NodeJS.ProcessEnv = process.env, opts: { quiet?: boolean; printAdmin?: (line: string) => void } = {}): Promise<Embedded> {
  const say = opts.quiet ? () => {} : step;
  const settings = loadConfig(Settings, env);
  const logger = createLogger({ name: 'puente', level: settings.LOG_LEVEL });
  const dataDir = resolve(settings.DATA_DIR);
  // Known before the services start, so the links in their emails name it (outside production: runnerDefaults).
  const port = settings.PORT || await freePort(settings.HOST);
  // One process runs every party: it holds every secret, and every signing key (each party signs with its own).
  const secrets = runnerSecrets({
    ...env, ...runnerDefaults(env, { dataDir, host: settings.HOST, port }), ATTACHMENT_STORAGE_DIR: env.ATTACHMENT_STORAGE_DIR ?? join(dataDir, 'attachments'),
  }, dataDir);
  const serviceEnv = secrets.all;
  checkIndependentSecrets(serviceEnv);
  if (!serviceEnv.SESSION_SECRET) throw new ConfigError('SESSION_SECRET is required in production (npm run secrets makes one)');
  const keys = keyringOf(secrets.signingKeys);

  say(`starting the embedded database (PGlite) in ${join(dataDir, 'pglite')}`);
  // pg_trgm: audit's trigram indexes (its email filter); once they exist, every open of this folder must load it.
  const db = await PGlite.create({ dataDir: join(dataDir, 'pglite'), extensions: { pg_trgm } });
  const socketDir = privateSocketDir(dataDir);
  const dbServer = new PGLiteSocketServer({ db, path: join(socketDir, SOCKET_FILE), maxConnections: 100 });
  await dbServer.start();

  const bus = new InProcessBus({ logger });
  // One registry for the gateway and all seven services, each sample labelled with its service.
  const metrics = await startMetrics(settings);
  // One store of polled data's versions: the services bump them, the gateway answers unchanged polls from them.
  const versions = new MemoryVersionStore();
  // The services' jobs begin once all seven have started: a job calling a peer (identity's backfill asks exchange)
  // would otherwise fail against one with no address yet, and warn at every start.
  const allStarted = Promise.withResolvers<void>();
  const runtime: Runtime = {
    databaseUrl: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`,
    bus,
    jobs: () => new InProcessJobQueue({ logger, startsAfter: allStarted.promise }),
    keys,
    logger,
    serviceUrls: {},
    dbPoolMax: 2,
    // Every commit that writes an event kicks its relay at once; the poll is only a safety net (one instance here),
    // and each costs a few queries of the one-threaded embedded database.
    outboxPollMs: 1_000,
    versions,
    metrics: metrics?.metrics,
    // In production an admin's session needs two-factor sign-in: the gateway and every service hold to it.
    adminsNeedTwoFactor: adminsNeedTwoFactor(env),
  };

  // The seeded admin is said in the banner, after the start's steps, rather than among them.
  const admin: string[] = [];
  const definitions = serviceDefinitions(serviceEnv, { printAdmin: opts.printAdmin ?? ((line) => admin.push(line)) });
  const services: RunningService[] = [];
  const stopAll = async () => {
    for (const s of [...services].reverse()) await s.stop().catch((err) => logger.error({ err }, `stopping ${s.name} failed`));
    await bus.close();
    await metrics?.server.close();
    await dbServer.stop();
    await db.close();
    rmSync(join(socketDir, SOCKET_FILE), { force: true });
  };
  try {
    for (const [i, name] of ServiceNames.entries()) {
      say(`starting service ${i + 1}/${ServiceNames.length}: ${name}`);
      const service = await startService(definitions[name as ServiceName], runtime, { host: '127.0.0.1', port: 0 });
      services.push(service);
      await service.joined; // the in-process bus and jobs answer at once: the next service starts after this one is whole
    }
    allStarted.resolve();
    say('starting the gateway');
    // Sessions and rate-limit counters in the embedded database, so a restart keeps both; /ws on the in-process bus.
    const gateway = await buildGateway({
      logger, serviceUrls: runtime.serviceUrls, auth: internalAuth('gateway', keys), sessionSecret: serviceEnv.SESSION_SECRET, bus,
      databaseUrl: runtime.databaseUrl, versions, metrics: metrics?.metrics, adminsNeedTwoFactor: runtime.adminsNeedTwoFactor ?? false,
      ...gatewayOptionsFrom(settings),
    });
    try {
      await gateway.listen({ host: settings.HOST, port, backlog: LISTEN_BACKLOG });
    } catch (err) {
      await gateway.close();
      throw err;
    }
    const url = appAddress(settings.HOST, port);
    return {
      url,
      services,
      testingAids: testingAidsBanner(env, settings.HOST, port),
      admin,
      ...(metrics ? { metricsUrl: metrics.server.url } : {}),
      async stop() {
        await gateway.close();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll().catch(() => undefined);
    throw err;
  }
}

if (import.meta.main) {
  const started = Date.now();
  try {
    const app = await startEmbedded();
    process.stdout.write(`\nPuente is running at ${app.url} (started in ${((Date.now() - started) / 1000).toFixed(1)} s). Health: ${app.url}/api/health.${app.metricsUrl ? ` Metrics: ${app.metricsUrl}.` : ''} Ctrl+C stops it.\n`);
    if (app.admin.length > 0) process.stdout.write(`${app.admin.join('\n')}\n`);
    if (app.testingAids.length > 0) process.stdout.write(`\n${app.testingAids.join('\n')}\n`);
    stopGracefully(createLogger({ name: 'puente', level: process.env.LOG_LEVEL ?? 'warn' }), async () => {
      process.stdout.write('\nstopping Puente...\n');
      await app.stop();
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`\nPuente could not start: ${message}\n`);
    if (/EADDRINUSE/.test(message)) process.stderr.write('Another program uses that port: set PORT to a free one, e.g. PORT=8081 npm start\n');
    else if (/pglite|database/i.test(message)) process.stderr.write('If the data folder is damaged, move .data away (or set DATA_DIR) and start again.\n');
    process.exit(1);
  }
}
