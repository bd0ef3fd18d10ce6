/**
 * Embedded mode (`npm start`): the gateway and all seven services in one Node process, on embedded defaults —
 * PostgreSQL compiled to WebAssembly (PGlite, served over the Postgres wire protocol on loopback so services use
 * the same driver as in production), the in-process bus and the in-process job runner. Data lives under
 * DATA_DIR (./.data). Nothing to install beyond `npm ci`.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { ServiceNames, type ServiceName } from '@puente/contracts';
import {
  createLogger, internalAuth, loadConfig, startService, InProcessBus, type RunningService, type Runtime,
} from '@puente/platform';
import { InProcessJobQueue } from '@puente/platform/jobs';
import { buildGateway, gatewayOptionsFrom, gatewaySettings } from '@puente/gateway';
import { serviceDefinitions } from './services.ts';

/** The runner's settings and the gateway's (origins, proxy trust, session lifetime, rate limits, web root). */
const Settings = gatewaySettings.extend({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  INTERNAL_TOKEN_SECRET: z.string().min(32, 'INTERNAL_TOKEN_SECRET must be at least 32 characters').optional(),
});

export interface Embedded {
  url: string;
  services: RunningService[];
  stop(): Promise<void>;
}

const step = (message: string) => process.stdout.write(`• ${message}\n`);

interface EmbeddedSecrets { internalTokenSecret: string; sessionSecret: string; bankEncryptionKey: string }

/**
 * Secrets the embedded mode generates on first start and keeps in DATA_DIR/secrets.json (mode 600), so sessions
 * and encrypted bank details survive restarts. A secret set in the environment wins.
 */
function embeddedSecrets(dataDir: string): EmbeddedSecrets {
  const file = join(dataDir, 'secrets.json');
  const kept: Partial<EmbeddedSecrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets: EmbeddedSecrets = {
    internalTokenSecret: kept.internalTokenSecret ?? randomBytes(32).toString('base64url'),
    sessionSecret: kept.sessionSecret ?? randomBytes(32).toString('base64url'),
    bankEncryptionKey: kept.bankEncryptionKey ?? randomBytes(32).toString('base64'),
  };
  if (JSON.stringify(kept) !== JSON.stringify(secrets)) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** The environment the embedded services see: the caller's, with generated secrets where none is set. */
function embeddedEnv(env: NodeJS.ProcessEnv, secrets: EmbeddedSecrets): NodeJS.ProcessEnv {
  return {
    ...env,
    INTERNAL_TOKEN_SECRET: env.INTERNAL_TOKEN_SECRET ?? secrets.internalTokenSecret,
    SESSION_SECRET: env.SESSION_SECRET ?? secrets.sessionSecret,
    BANK_ENCRYPTION_KEYS: env.BANK_ENCRYPTION_KEYS ?? `k1:${secrets.bankEncryptionKey}`,
  };
}

export async function startEmbedded(env: NodeJS.ProcessEnv = process.env, opts: { quiet?: boolean; printAdmin?: (line: string) => void } = {}): Promise<Embedded> {
  const say = opts.quiet ? () => {} : step;
  const settings = loadConfig(Settings, env);
  const logger = createLogger({ name: 'puente', level: settings.LOG_LEVEL });
  const dataDir = resolve(settings.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const secrets = embeddedSecrets(dataDir);
  const serviceEnv = embeddedEnv(env, secrets);

  say(`starting the embedded database (PGlite) in ${join(dataDir, 'pglite')}`);
  const db = await PGlite.create({ dataDir: join(dataDir, 'pglite') });
  const dbServer = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 100 } as ConstructorParameters<typeof PGLiteSocketServer>[0]);
  await dbServer.start();
  const dbPort = Number(String(dbServer.getServerConn()).split(':').pop());

  const bus = new InProcessBus({ logger });
  const runtime: Runtime = {
    databaseUrl: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`,
    bus,
    jobs: () => new InProcessJobQueue({ logger }),
    auth: internalAuth(serviceEnv.INTERNAL_TOKEN_SECRET!),
    logger,
    serviceUrls: {},
    dbPoolMax: 2,
    outboxPollMs: 200,
  };

  const definitions = serviceDefinitions(serviceEnv, opts.printAdmin ? { printAdmin: opts.printAdmin } : {});
  const services: RunningService[] = [];
  const stopAll = async () => {
    for (const s of [...services].reverse()) await s.stop().catch((err) => logger.error({ err }, `stopping ${s.name} failed`));
    await bus.close();
    await dbServer.stop();
    await db.close();
  };
  try {
    for (const [i, name] of ServiceNames.entries()) {
      say(`starting service ${i + 1}/${ServiceNames.length}: ${name}`);
      services.push(await startService(definitions[name as ServiceName], runtime, { host: '127.0.0.1', port: 0 }));
    }
    say('starting the gateway');
    // Sessions and rate-limit counters in memory (one instance); the live channel on the in-process bus.
    const gateway = await buildGateway({
      logger, serviceUrls: runtime.serviceUrls, auth: runtime.auth, sessionSecret: serviceEnv.SESSION_SECRET!, bus,
      ...gatewayOptionsFrom(settings),
    });
    try {
      await gateway.listen({ host: settings.HOST, port: settings.PORT });
    } catch (err) {
      await gateway.close();
      throw err;
    }
    const address = gateway.server.address();
    const port = typeof address === 'object' && address ? address.port : settings.PORT;
    const url = `http://localhost:${port}`;
    return {
      url,
      services,
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
    process.stdout.write(`\nPuente is running at ${app.url} (started in ${((Date.now() - started) / 1000).toFixed(1)} s). Health: ${app.url}/api/health. Ctrl+C stops it.\n`);
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        if (stopping) return;
        stopping = true;
        process.stdout.write('\nstopping Puente...\n');
        const force = setTimeout(() => process.exit(1), 15_000);
        force.unref();
        void app.stop().then(() => process.exit(0));
      });
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`\nPuente could not start: ${message}\n`);
    if (/EADDRINUSE/.test(message)) process.stderr.write('Another program uses that port: set PORT to a free one, e.g. PORT=8081 npm start\n');
    else if (/pglite|database/i.test(message)) process.stderr.write('If the data folder is damaged, move .data away (or set DATA_DIR) and start again.\n');
    process.exit(1);
  }
}
