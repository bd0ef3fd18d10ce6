/**
 * Starting a service for its integration tests: its real definition on a real PostgreSQL database, with the
 * in-process bus and job runner (the bus contract suite proves they behave as Kafka and BullMQ do). Requests go
 * through app.inject; `as(user)` builds the internal-token header the gateway would send.
 */
import { randomBytes } from 'node:crypto';
import type { EventEnvelope } from '@puente/contracts';
import { createLogger } from './logger.ts';
import { INTERNAL_TOKEN_HEADER, internalAuth, type Caller } from './auth.ts';
import { InProcessBus } from './messaging/in-process.ts';
import { InProcessJobQueue } from './jobs/in-process.ts';
import { startService, type RunningService, type Runtime, type ServiceDefinition } from './service.ts';

export interface TestService extends RunningService {
  bus: InProcessBus;
  /** Headers that make a request come from this caller (as the gateway would sign them). */
  as(caller: Caller): Promise<Record<string, string>>;
  /** Publishes events as their producer would and waits until every consumer has handled them. */
  deliver(...events: EventEnvelope[]): Promise<void>;
  /** Events this service published (through its outbox) since start. */
  published(): EventEnvelope[];
}

/** Tests that start several services pass them one bus and one secret, so events and internal calls cross. */
export interface TestServiceOptions { bus?: InProcessBus; secret?: string; serviceUrls?: Runtime['serviceUrls'] }

export async function startTestService(def: ServiceDefinition, databaseUrl: string, opts: TestServiceOptions = {}): Promise<TestService> {
  const logger = createLogger({ name: `test-${def.name}`, level: process.env.LOG_LEVEL ?? 'warn' });
  const ownBus = !opts.bus;
  const bus = opts.bus ?? new InProcessBus({ logger });
  const auth = internalAuth(opts.secret ?? randomBytes(32).toString('hex'));
  const running = await startService(def, {
    databaseUrl, bus, auth, logger, serviceUrls: opts.serviceUrls ?? {}, outboxPollMs: 20,
    jobs: () => new InProcessJobQueue({ logger }),
  }, { host: '127.0.0.1', port: 0 });
  const published: EventEnvelope[] = [];
  await bus.subscribe({ group: `test-observer-${def.name}`, topics: [`puente.${def.name}`], handle: async (e) => { published.push(e); } });
  return {
    ...running,
    bus,
    async as(caller) { return { [INTERNAL_TOKEN_HEADER]: await auth.sign(caller) }; },
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
export const PLATFORM_TABLES = ['inbox_entry', 'mikro_orm_migrations', 'outbox_event', 'relay_lease'];
