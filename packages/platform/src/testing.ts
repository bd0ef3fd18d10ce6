/**
 * Starting a service for its integration tests: its real definition on a real PostgreSQL database, with the
 * in-process bus and job runner (the bus contract suite proves they behave as Kafka and BullMQ do). Requests go
 * through app.inject; `as(user)` builds the internal-token header the gateway would send.
 */
import type { EventEnvelope } from '@puente/contracts';
import { AppError } from './errors.ts';
import { createLogger } from './logger.ts';
import { INTERNAL_TOKEN_HEADER, internalAuth, type Caller, type InternalAuth } from './auth.ts';
import { generateSigningKeys, keyringOf, type Party, type ServiceKeys } from './service-keys.ts';
import { InProcessBus } from './messaging/in-process.ts';
import { InProcessJobQueue } from './jobs/in-process.ts';
import { startService, type RunningService, type Runtime, type ServiceDefinition } from './service.ts';

export interface TestService extends RunningService {
  bus: InProcessBus;
  /** Headers that make a request come from this caller (a user as the gateway signs them, a service as itself). */
  as(caller: Caller): Promise<Record<string, string>>;
  /** Publishes events as their producer would and waits until every consumer has handled them. */
  deliver(...events: EventEnvelope[]): Promise<void>;
  /** Events this service published (through its outbox) since start. */
  published(): EventEnvelope[];
}

/**
 * Tests that start several services pass them one bus, so events cross; internal calls cross on the test keys.
 * adminsNeedTwoFactor: admin access as in production (an admin caller needs `twoFactor`).
 */
export interface TestServiceOptions { bus?: InProcessBus; serviceUrls?: Runtime['serviceUrls']; adminsNeedTwoFactor?: boolean }

let keys: ServiceKeys | undefined;
/** Every party's signing key, made once per test process: services and fakes started in it trust each other. */
export function testKeys(): ServiceKeys {
  keys ??= keyringOf(generateSigningKeys().signingKeys);
  return keys;
}

/** How `party` signs and verifies on the test keys (a fake service, the gateway's side of a test). */
export const testAuth = (party: Party): InternalAuth => internalAuth(party, testKeys());

export async function startTestService(def: ServiceDefinition, databaseUrl: string, opts: TestServiceOptions = {}): Promise<TestService> {
  const logger = createLogger({ name: `test-${def.name}`, level: process.env.LOG_LEVEL ?? 'warn' });
  const ownBus = !opts.bus;
  const bus = opts.bus ?? new InProcessBus({ logger });
  const gateway = testAuth('gateway');
  const running = await startService(def, {
    databaseUrl, bus, keys: testKeys(), logger, serviceUrls: opts.serviceUrls ?? {}, outboxPollMs: 20,
    jobs: () => new InProcessJobQueue({ logger }),
    adminsNeedTwoFactor: opts.adminsNeedTwoFactor ?? false,
  }, { host: '127.0.0.1', port: 0 });
  await running.joined; // a test delivers events at once: its consumers are in their group first
  const published: EventEnvelope[] = [];
  await bus.subscribe({ group: `test-observer-${def.name}`, topics: [`puente.${def.name}`], handle: async (e) => { published.push(e); } });
  return {
    ...running,
    bus,
    async as(caller) {
      const signer = caller.kind === 'user' ? gateway : testAuth(caller.service);
      return { [INTERNAL_TOKEN_HEADER]: await signer.sign(caller, def.name) };
    },
    async deliver(...events) {
      for (const e of events) await bus.publish(`puente.${e.producer}`, [e]);
      await bus.drain();
    },
    published: () => [...published],
    async stop() {
      await running.stop();
      if (ownBus) await bus.close();
    },
  };
}

/** The non-system schemas of the service's database, and the tables in the service's own schema. */
export async function schemaReport(svc: RunningService): Promise<{ schemas: string[]; tables: string[] }> {
  const em = svc.ctx.orm.em.fork();
  const schemas = await em.execute<{ nspname: string }[]>(
    `select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname not in ('information_schema', 'public') order by 1`);
  const tables = await em.execute<{ table_name: string }[]>(
    'select table_name from information_schema.tables where table_schema = ? order by 1', [svc.name]);
  return { schemas: schemas.map((s) => s.nspname), tables: tables.map((t) => t.table_name) };
}

/** The platform's tables every service schema has. */
export const PLATFORM_TABLES = ['idempotency_key', 'inbox_entry', 'mikro_orm_migrations', 'outbox_event', 'relay_lease'];

/** The refusal `fn` throws, as the API would answer it (for the plain unit tests of transitions). */
export function refusal(fn: () => unknown): { status: number; code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
    throw err;
  }
  throw new Error('not refused');
}
