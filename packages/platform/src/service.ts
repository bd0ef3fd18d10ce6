/**
 * A service is a definition — its entities, migrations, routes, consumers and jobs — started on a Runtime that
 * says where its database, bus and job queue are. The embedded mode starts all seven definitions on one runtime
 * (PGlite, in-process bus and jobs) in one process; the distributed mode starts each in its own process on
 * Postgres, Kafka and Redis (runServiceProcess). The definition is the same in both.
 */
import type { ListenOptions } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyListenOptions } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { topicOf, Events, KEPT_KEYS_SET, type EventEnvelope, type EventName, type EventPayload, type ReadyResponse, type ServiceName } from '@puente/contracts';
import { createHttpApp } from './http/app.ts';
import { serviceLogger } from './logger.ts';
import { INTERNAL_TOKEN_HEADER, internalAuth, type InternalAuth } from './auth.ts';
import type { ServiceKeys } from './service-keys.ts';
import { openDatabase, databaseHealthy, type Orm } from './db/database.ts';
import { OutboxRelay, addToOutbox } from './messaging/outbox.ts';
import { applyOnce } from './messaging/inbox.ts';
import { changed, keysMovedBy, type Caused, type Changed, type VersionTable } from './messaging/changes.ts';
import { readEvent } from './messaging/envelope.ts';
import type { EventBus, SubscriptionHandle } from './messaging/bus.ts';
import type { JobDefinition, JobQueue } from './jobs/port.ts';
import { MemoryVersionStore, serviceVersions, versionKeyOf, type VersionStore } from './http/versions.ts';
import { IdempotencyKeys, keyedTransaction, purgeIdempotencyKeys, purgeIdempotencyKeysSchedule } from './http/idempotency.ts';
import type { Metrics } from './observability/metrics.ts';

declare module './jobs/port.ts' {
  /** A queue's handlers get their service's ServiceContext unless the queue names another (startService starts it so). */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges ServiceContext into the port's default
  interface DefaultJobContext extends ServiceContext {}
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A fresh EntityManager for this request (MikroORM request context). */
    em: EntityManager;
  }
}

export interface ConsumerContext {
  em: EntityManager;
  event: EventEnvelope;
  log: Logger;
  /** The service's job queue, for work an event starts but should not do in its handler (a fan-out in pages). */
  jobs: JobQueue;
}

/**
 * A handler may return what its changes caused: the events are written to the outbox in the inbox's transaction,
 * and the keys the service's version table gives them, its local changes and the consumed event get new versions
 * once it is committed.
 */
export type ConsumerResult = readonly Caused[] | void;

export interface Consumer {
  event: EventName;
  handle(payload: unknown, ctx: ConsumerContext): Promise<ConsumerResult>;
}

/** One entry of a service's subscription list (src/events/consumers.ts). */
export function consume<N extends EventName>(event: N, handle: (payload: EventPayload<N>, ctx: ConsumerContext) => Promise<ConsumerResult>): Consumer {
  return { event, handle: handle as Consumer['handle'] };
}

export interface ServiceContext {
  name: ServiceName;
  orm: Orm;
  bus: EventBus;
  jobs: JobQueue;
  auth: InternalAuth;
  logger: Logger;
  relay: OutboxRelay;
  /** The versions behind the service's polled routes (http/versions.ts): bump a key after committing its change. */
  versions: VersionStore;
  /** Runs fn in one transaction (a change that announces nothing and moves no polled read: use change for one that does). */
  transaction<T>(fn: (tx: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Runs fn in one transaction and writes the events it returns (messaging/changes.ts) to the outbox in it; once
   * committed, the relay publishes them and the keys the service's version table gives them get new versions.
   */
  change<T>(fn: (tx: EntityManager) => Promise<Changed<T>>): Promise<T>;
  /** Calls another service's HTTP API as this service (internal token). */
  callService(service: ServiceName, path: string, init?: RequestInit): Promise<Response>;
}

export interface ScheduleDefinition { job: string; everyMs: number; schedulerId: string; data?: unknown }

export interface ServiceDefinition {
  name: ServiceName;
  /** The service's own entities (defineEntity schemas); outbox/inbox tables are added by the platform. */
  entities: unknown[];
  /** Absolute path of the service's committed migrations (src/migrations). */
  migrationsPath: string;
  routes(app: FastifyInstance, ctx: ServiceContext): Promise<void> | void;
  consumers?: Consumer[];
  /** Each handler receives the job's data and this service's ServiceContext (with the run as `job`). */
  jobs?: JobDefinition[];
  schedules?: ScheduleDefinition[];
  /** Runs once the database is migrated, before the service takes traffic (seeding, caches, enqueuing a job). */
  onStart?(ctx: ServiceContext): Promise<void>;
  /** Which polled-read keys each event moves: applied to the events a change writes and to the events consumed. */
  versions?: VersionTable;
  /**
   * Every kept key (keptKey) that should have a version now, read from the database: set when the store has no
   * KEPT_KEYS_SET of this service (a fresh store, or one that lost its data), then KEPT_KEYS_SET is.
   */
  keptKeys?(em: EntityManager): Promise<string[]>;
}

export function defineService(def: ServiceDefinition): ServiceDefinition {
  return def;
}

export interface Runtime {
  databaseUrl: string;
  bus: EventBus;
  /** The job queue for one service (one queue per service). */
  jobs(service: ServiceName): JobQueue;
  /** The keys a service signs its calls with and checks its callers' tokens against (its own, or all: embedded). */
  keys: ServiceKeys;
  logger: Logger;
  /** Base URLs of the services, for internal calls; filled as services start in the embedded mode. */
  serviceUrls: Partial<Record<ServiceName, string>>;
  outboxPollMs?: number;
  /** How long the outbox relay's lease lasts unless renewed: a dead instance's relay is replaced within it. */
  outboxLeaseMs?: number;
  dbPoolMax?: number;
  dbDebug?: boolean;
  /** Where polled routes' versions live, shared by a service's instances (Redis); this process's memory if unset. */
  versions?: VersionStore;
  /** The process's metrics (served on METRICS_PORT); none recorded without it. */
  metrics?: Metrics;
  /** Admin access needs a session signed in with two-factor sign-in: in production (testing-aids.ts, adminsNeedTwoFactor). */
  adminsNeedTwoFactor?: boolean;
  /** How often the schedules are registered again (default SCHEDULES_CHECK_MS). */
  schedulesCheckMs?: number;
}

export interface RunningService {
  name: ServiceName;
  url: string;
  app: FastifyInstance;
  ctx: ServiceContext;
  /**
   * Settles once the service's consumers have joined their group and its schedules are registered. The service
   * serves before that (serve first, join later): a process waits for it only where it must (tests, in-process bus).
   */
  joined: Promise<void>;
  stop(): Promise<void>;
}

/** How often a service registers its schedules again: a Redis that lost its data has them back within a minute. */
export const SCHEDULES_CHECK_MS = 30_000;
const JOIN_RETRY_MIN_MS = 1_000;
const JOIN_RETRY_MAX_MS = 30_000;

/** Where a service listens; reusePort lets other instances of it on this machine share the port (SO_REUSEPORT). */
export interface ListenOn { host: string; port: number; reusePort?: boolean }

export async function startService(declared: ServiceDefinition, runtime: Runtime, listen: ListenOn): Promise<RunningService> {
  const def = withPlatformJobs(declared);
  const logger = serviceLogger(runtime.logger, def.name);
  const orm = await openDatabase({
    url: runtime.databaseUrl, schema: def.name, entities: def.entities, migrationsPath: def.migrationsPath,
    logger, debug: runtime.dbDebug ?? false, poolMax: runtime.dbPoolMax ?? 10,
  });
  const relay = new OutboxRelay({
    orm, schema: def.name, bus: runtime.bus, logger, pollMs: runtime.outboxPollMs ?? 250,
    ...(runtime.outboxLeaseMs ? { leaseMs: runtime.outboxLeaseMs } : {}),
    onPublished: runtime.metrics?.countPublished(def.name),
  });
  const jobs = runtime.jobs(def.name);
  const store = runtime.versions ?? new MemoryVersionStore();
  const versions = serviceVersions(store, def.name, logger);
  const auth = internalAuth(def.name, runtime.keys);
  const ctx: ServiceContext = {
    name: def.name, orm, bus: runtime.bus, jobs, auth, logger, relay, versions,
    async transaction(fn) {
      const result = await keyedTransaction(orm.em.fork(), fn);
      relay.kick();
      return result;
    },
    async change(fn) {
      const { value, keys } = await keyedTransaction(orm.em.fork(), async (tx) => {
        const { value, events, local } = await fn(tx);
        addToOutbox(tx, ...events);
        return { value, keys: await keysMovedBy(def.versions, [...events, ...local], tx) };
      });
      relay.kick();
      if (keys.length > 0) await versions.bump(keys);
      return value;
    },
    async callService(service, path, init = {}) {
      const base = runtime.serviceUrls[service];
      if (!base) throw new Error(`No URL known for service ${service} (set SERVICE_URLS)`);
      const headers = new Headers(init.headers);
      headers.set(INTERNAL_TOKEN_HEADER, await auth.sign({ kind: 'service', service: def.name }, service));
      return fetch(new URL(path, base), { ...init, headers, signal: init.signal ?? AbortSignal.timeout(10_000) });
    },
  };

  const app = createHttpApp({ logger, auth, requestMetrics: runtime.metrics?.requestMetrics(def.name), adminsNeedTwoFactor: runtime.adminsNeedTwoFactor ?? false });
  app.decorate('versions', versions);
  app.decorate('idempotencyKeys', new IdempotencyKeys(orm, def.name, logger));
  app.decorateRequest('em', null as unknown as EntityManager);
  app.addHook('onRequest', async (request) => { request.em = orm.em.fork(); });
  // Ready means "can serve" (a readiness probe takes a pod out of rotation): the database is what every route needs.
  // A bus or Redis outage is ridden out (the outbox holds what is published, jobs wait), so it shows as degraded.
  app.get('/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const [database, bus, queue] = await Promise.all([databaseHealthy(orm), runtime.bus.healthy(), jobs.healthy()]);
    // Asked only of a queue that answers: schedules cannot be known while Redis is away (jobs: false says so).
    const missing = queue ? await missingSchedules(def, jobs).catch(() => []) : [];
    const status = !database ? 'unavailable' : bus && queue && missing.length === 0 ? 'ok' : 'degraded';
    const body: ReadyResponse = {
      status, checks: { database, bus, jobs: queue, schedules: missing.length === 0 }, ...(missing.length > 0 ? { missingSchedules: missing } : {}),
    };
    return reply.status(database ? 200 : 503).send(body);
  });
  await app.register(async (scope) => { await def.routes(scope, ctx); });

  for (const job of def.jobs ?? []) jobs.register(job); // before onStart, which may enqueue one
  if (def.onStart) await def.onStart(ctx);
  await jobs.start(ctx); // each handler gets this context: jobs need no closure over the started service
  relay.start();
  const unobserve = runtime.metrics?.observeService({ name: def.name, orm, jobs, bus: runtime.bus });
  // Fastify hands its listen options to node's server.listen as they are, reusePort included (its types omit it).
  const listenOptions: FastifyListenOptions & Pick<ListenOptions, 'reusePort'> = { host: listen.host, port: listen.port, reusePort: listen.reusePort ?? false };
  await app.listen(listenOptions);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : listen.port;
  const url = `http://${listen.host}:${port}`;
  runtime.serviceUrls[def.name] = url;
  logger.info({ url }, `${def.name} service ready`);
  const background = joinLater(def, ctx, store, runtime.schedulesCheckMs ?? SCHEDULES_CHECK_MS);

  return {
    name: def.name, url, app, ctx, joined: background.joined,
    async stop() {
      unobserve?.();
      await app.close();
      await background.stop();
      await relay.stop();
      await jobs.stop();
      await orm.close();
    },
  };
}

/** The service's jobs and schedules with the platform's own: the purge of idempotency keys past their window. */
function withPlatformJobs(def: ServiceDefinition): ServiceDefinition {
  return { ...def, jobs: [...def.jobs ?? [], purgeIdempotencyKeys], schedules: [...def.schedules ?? [], purgeIdempotencyKeysSchedule] };
}

/** How many kept keys are set in one call to the store. */
const KEPT_KEYS_PER_BUMP = 1_000;

/**
 * What a service does once it serves (serve first, join later): it joins its consumer group, registers its
 * schedules and sets its kept versions, each retried with backoff until it succeeds, so a broker or Redis away at
 * start delays only them. Every `checkEveryMs` the schedules are registered again (idempotent: BullMQ's job
 * schedulers, upserted) and the kept versions set again if the store lost them.
 */
function joinLater(def: ServiceDefinition, ctx: ServiceContext, store: VersionStore, checkEveryMs: number): { joined: Promise<void>; stop(): Promise<void> } {
  const stopping = new AbortController();
  let subscription: SubscriptionHandle | undefined;
  const schedule = async () => {
    for (const s of def.schedules ?? []) await ctx.jobs.schedule(s.job, s.data ?? {}, { everyMs: s.everyMs, schedulerId: s.schedulerId });
  };
  const keptKeys = def.keptKeys;
  // Straight to the store, not through ctx.versions (which only logs a failed bump): the mark is set only once
  // every kept key is.
  const keep = keptKeys && (async () => {
    const set = versionKeyOf(def.name, KEPT_KEYS_SET);
    if ((await store.read([set]))[0] !== '') return;
    const keys = (await keptKeys(ctx.orm.em.fork())).map((key) => versionKeyOf(def.name, key));
    for (let i = 0; i < keys.length; i += KEPT_KEYS_PER_BUMP) await store.bump(keys.slice(i, i + KEPT_KEYS_PER_BUMP));
    await store.bump([set]);
    ctx.logger.info({ keys: keys.length }, 'kept versions set');
  });
  const consumers = untilDone('joining its consumer group', async () => { subscription = await subscribeConsumers(def, ctx); }, stopping.signal, ctx.logger);
  const scheduled = untilDone('registering its schedules', schedule, stopping.signal, ctx.logger);
  const kept = keep && untilDone('setting its kept versions', keep, stopping.signal, ctx.logger);
  const check = (def.schedules ?? []).length === 0 && !keep ? undefined : setInterval(() => {
    schedule().catch((err: unknown) => ctx.logger.warn({ err }, 'could not register its schedules again; trying at the next check'));
    keep?.().catch((err: unknown) => ctx.logger.warn({ err }, 'could not set its kept versions again; trying at the next check'));
  }, checkEveryMs);
  check?.unref();
  return {
    joined: Promise.all([consumers, scheduled, kept]).then(() => {}),
    async stop() {
      stopping.abort();
      clearInterval(check);
      // A join still under way ends with the bus (its close leaves every group); one done leaves now.
      await subscription?.stop();
    },
  };
}

/** The service's declared schedules its queue does not hold. */
async function missingSchedules(def: ServiceDefinition, jobs: JobQueue): Promise<string[]> {
  const declared = (def.schedules ?? []).map((s) => s.schedulerId);
  if (declared.length === 0) return [];
  const held = new Set(await jobs.schedulerIds());
  return declared.filter((id) => !held.has(id));
}

/** Runs `attempt` until it succeeds or `signal` aborts, waiting 1 s, 2 s, 4 s … 30 s between tries; says each failure. */
async function untilDone(what: string, attempt: () => Promise<void>, signal: AbortSignal, logger: Logger): Promise<void> {
  for (let n = 1; !signal.aborted; n++) {
    try {
      await attempt();
      if (n > 1) logger.info({ attempts: n }, `done ${what}`);
      return;
    } catch (err) {
      if (signal.aborted) return;
      const delay = Math.min(JOIN_RETRY_MAX_MS, JOIN_RETRY_MIN_MS * 2 ** (n - 1));
      logger.warn({ err, attempt: n, retryInMs: delay }, `${what} failed; serving meanwhile, trying again`);
      await sleep(delay, undefined, { signal }).catch(() => {});
    }
  }
}

/** One consumer group per service over the topics its consumers need; each event applied once via the inbox. */
async function subscribeConsumers(def: ServiceDefinition, ctx: ServiceContext): Promise<SubscriptionHandle | undefined> {
  const consumers = def.consumers ?? [];
  if (consumers.length === 0) return undefined;
  const byType = new Map<string, Consumer[]>();
  for (const c of consumers) {
    const type = Events[c.event].type;
    byType.set(type, [...(byType.get(type) ?? []), c]);
  }
  const topics = [...new Set(consumers.map((c) => topicOf(Events[c.event].producer)))];
  return ctx.bus.subscribe({
    group: def.name,
    topics,
    types: [...byType.keys()],
    handle: async (event) => {
      const handlers = byType.get(event.type);
      if (!handlers) return; // another event on a topic we read: not ours
      let moved: string[] = [];
      const applied = await applyOnce(ctx.orm.em.fork(), def.name, event, async (tx) => {
        const consumerCtx: ConsumerContext = { em: tx, event, log: ctx.logger.child({ eventId: event.id, type: event.type }), jobs: ctx.jobs };
        const caused: Caused[] = [];
        let known = false;
        for (const c of handlers) {
          const payload = readEvent(c.event, event);
          if (payload === undefined) continue; // a version this consumer does not know
          known = true;
          caused.push(...(await c.handle(payload, consumerCtx) ?? []));
        }
        const { events } = changed(undefined, ...caused);
        addToOutbox(tx, ...events);
        moved = await keysMovedBy(def.versions, known ? [event, ...caused] : caused, tx); // a retried transaction starts over
      });
      if (applied && moved.length > 0) await ctx.versions.bump(moved);
      ctx.relay.kick();
    },
  });
}

