/**
 * Prometheus metrics (prom-client): one registry per process, served at /metrics on a listener of its own
 * (METRICS_PORT, never the gateway's public port). Every metric of a service carries a `service` label, so the
 * embedded mode (all services in one process) serves one registry on one port.
 *
 * - Recorded as things happen, cheaply: HTTP request durations (one histogram observation per request, by route
 *   pattern), the business counters, derived from the events a service's outbox relay has published (so no
 *   domain code knows about metrics; one count per event however many instances run, see outbox.ts), and the
 *   requests the gateway shed for a busy service (admission.ts), by route.
 * - Read when scraped: outbox backlog and the age of its oldest row (one query per service), the database pool,
 *   job counts, consumer lag and dead letters (from the bus), open /ws sockets, the gateway's requests in flight and
 *   queued for each service. A probe that fails (its database
 *   down) leaves its samples out of that scrape rather than failing it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Events, type EventEnvelope } from '@puente/contracts';
import { readEvent } from '../messaging/envelope.ts';

/** How long one probe may take before a scrape goes on without it. */
const PROBE_TIMEOUT_MS = 2_000;

/** Seconds; from a 304 answered by the gateway (~1 ms) to a slow write through two hops. */
const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the service's relay published, as counted by the business counters: event type → counter. */
interface BusinessCounter { counter: Counter<string>; labels?(event: EventEnvelope): Record<string, string> | undefined }

/** Records one answered request (createHttpApp's onResponse hook). */
export type RequestMetrics = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * What the scrapes read of a service, declared here so that metrics (which the HTTP app records into) imports none of
 * the service's parts: startService hands over its ORM, job queue and bus, which have these members.
 */
export interface ObservedService {
  name: string;
  /** The service's database, its schema named after it (db/database.ts). */
  orm: Pick<MikroORM, 'em'>;
  /** Its job queue: jobs by state (JobQueue.counts). */
  jobs: { counts(): Promise<Readonly<Record<'waiting' | 'delayed' | 'active' | 'failed', number>>> };
  bus: ObservedBus;
}

/** What the scrapes read of an event bus (EventBus.consumerStats): each consumer group's lag and dead letters. */
export interface ObservedBus {
  consumerStats(): Promise<{ group: string; lag: number | undefined; deadLettered: number }[]>;
}

export interface MetricsServer { url: string; close(): Promise<void> }

export class Metrics {
  readonly registry = new Registry();
  private readonly probes = new Set<() => Promise<void>>();
  private readonly buses = new Set<ObservedBus>();
  private readonly business = new Map<string, BusinessCounter>();

  private readonly httpDuration: Histogram<string>;
  private readonly published: Counter<string>;
  /** Set on every scrape: cleared first, so a service or group that went away leaves no stale sample. */
  private readonly pulled: { reset(): void }[];
  private readonly outboxBacklog: Gauge<string>;
  private readonly outboxOldest: Gauge<string>;
  private readonly dbPool: Gauge<string>;
  private readonly dbPoolMax: Gauge<string>;
  private readonly jobs: Gauge<string>;
  private readonly consumerLag: Gauge<string>;
  private readonly deadLetters: Counter<string>;
  private readonly wsSockets: Gauge<string>;
  private readonly shed: Counter<string>;
  private readonly upstreamRequests: Gauge<string>;

  constructor() {
    const registers = [this.registry];
    // process_*, nodejs_* (event-loop lag included: nodejs_eventloop_lag_p99_seconds and friends), once per process.
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'puente_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern and status',
      labelNames: ['service', 'method', 'route', 'status_code'], buckets: DURATION_BUCKETS, registers,
    });
    this.published = new Counter({
      name: 'puente_events_published_total', help: 'Events the service\'s outbox relay published, by type',
      labelNames: ['service', 'type'], registers,
    });
    const counter = (name: string, help: string, labelNames: string[] = []) =>
      new Counter({ name, help, labelNames: ['service', ...labelNames], registers });
    const on = (type: string, c: Counter<string>, labels?: BusinessCounter['labels']) => this.business.set(type, { counter: c, ...(labels ? { labels } : {}) });
    on(Events.requestCreated.type, counter('puente_requests_posted_total', 'Exchange requests posted'));
    on(Events.matchCreated.type, counter('puente_matches_total', 'Exchange requests accepted (a match made)'));
    on(Events.matchConfirmed.type, counter('puente_matches_confirmed_total', 'Matches the requester confirmed'));
    on(Events.matchCompleted.type, counter('puente_completions_total', 'Matches completed (the trade done)'));
    on(Events.ratingSubmitted.type, counter('puente_ratings_total', 'Ratings given after a completed match'));
    on(Events.userRegistered.type, counter('puente_signups_total', 'Sign-ups completed (a user registered)'));
    on(Events.loginAttempted.type, counter('puente_failed_logins_total', 'Failed logins, by method and reason', ['method', 'reason']), (event) => {
      const attempt = readEvent('loginAttempted', event);
      return attempt?.status === 'failed' ? { method: attempt.method, reason: attempt.failureReason ?? 'unknown' } : undefined;
    });

    this.outboxBacklog = new Gauge({ name: 'puente_outbox_backlog', help: 'Outbox events committed and not yet published', labelNames: ['service'], registers });
    this.outboxOldest = new Gauge({
      name: 'puente_outbox_oldest_age_seconds', help: 'Age of the oldest unpublished outbox event (0 when none waits)', labelNames: ['service'], registers,
    });
    this.dbPool = new Gauge({
      name: 'puente_db_pool_connections', help: 'Database pool connections by state (in_use, idle, waiting: callers queued for one)',
      labelNames: ['service', 'state'], registers,
    });
    this.dbPoolMax = new Gauge({ name: 'puente_db_pool_max', help: 'Most connections the service\'s database pool opens', labelNames: ['service'], registers });
    this.jobs = new Gauge({
      name: 'puente_jobs', help: 'Jobs in the service\'s queue by state (waiting, delayed, active; failed: kept after their last attempt)',
      labelNames: ['service', 'state'], registers,
    });
    this.consumerLag = new Gauge({
      name: 'puente_consumer_lag', help: 'Events on a consumer group\'s topics it has not committed yet', labelNames: ['group'], registers,
    });
    this.deadLetters = new Counter({
      name: 'puente_dead_letters_total', help: 'Events a consumer group parked on its dead-letter topic (this process)', labelNames: ['group'], registers,
    });
    this.wsSockets = new Gauge({ name: 'puente_ws_sockets_open', help: 'Live-channel (/ws) sockets open on this gateway', labelNames: ['service'], registers });
    this.shed = new Counter({
      name: 'puente_requests_shed_total',
      help: 'Requests the gateway did not pass to a busy service, by route pattern: refused (503) or answered from a held copy (held)',
      labelNames: ['service', 'upstream', 'route', 'answer'], registers,
    });
    this.upstreamRequests = new Gauge({
      name: 'puente_upstream_requests', help: 'Requests from the gateway to each service by state (in_flight; queued: waiting for a slot)',
      labelNames: ['service', 'upstream', 'state'], registers,
    });
    this.pulled = [
      this.outboxBacklog, this.outboxOldest, this.dbPool, this.dbPoolMax, this.jobs, this.consumerLag, this.deadLetters, this.wsSockets, this.upstreamRequests,
    ];
  }

  /** The request hook of one app: route is the pattern (`/exchange-matches/:id`), never the raw URL. */
  requestMetrics(service: string): RequestMetrics {
    return (request, reply) => {
      this.httpDuration.observe(
        { service, method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    };
  }

  /** Counts what a service's relay published (its RelayOptions.onPublished). */
  countPublished(service: string): (events: readonly EventEnvelope[]) => void {
    return (events) => {
      for (const event of events) {
        this.published.inc({ service, type: event.type });
        const business = this.business.get(event.type);
        if (!business) continue;
        const labels = business.labels ? business.labels(event) : {};
        if (labels) business.counter.inc({ service, ...labels });
      }
    };
  }

  /** Reads the service's outbox, pool, jobs and bus at every scrape until the returned function is called. */
  observeService(s: ObservedService): () => void {
    const service = s.name;
    const probes = [
      async () => {
        const [row] = await s.orm.em.fork().execute<{ n: number; age: number }[]>(
          `select count(*)::int as n, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age
           from "${service}".outbox_event where published_at is null`);
        this.outboxBacklog.set({ service }, row?.n ?? 0);
        this.outboxOldest.set({ service }, row?.age ?? 0);
      },
      async () => {
        const pool = await s.orm.em.getConnection().getNativeClient() as Pool;
        this.dbPool.set({ service, state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.dbPool.set({ service, state: 'idle' }, pool.idleCount);
        this.dbPool.set({ service, state: 'waiting' }, pool.waitingCount);
        this.dbPoolMax.set({ service }, pool.options.max ?? 0);
      },
      async () => {
        for (const [state, n] of Object.entries(await s.jobs.counts())) this.jobs.set({ service, state }, n);
      },
    ];
    for (const probe of probes) this.probes.add(probe);
    const unobserveBus = this.observeBus(s.bus);
    return () => {
      for (const probe of probes) this.probes.delete(probe);
      unobserveBus();
    };
  }

  /** Consumer lag and dead letters of every group on this bus (once per bus: the embedded services share one). */
  observeBus(bus: ObservedBus): () => void {
    if (this.buses.has(bus)) return () => {};
    this.buses.add(bus);
    const probe = async () => {
      for (const { group, lag, deadLettered } of await bus.consumerStats()) {
        if (lag !== undefined) this.consumerLag.set({ group }, lag);
        this.deadLetters.inc({ group }, deadLettered);
      }
    };
    this.probes.add(probe);
    return () => {
      this.probes.delete(probe);
      this.buses.delete(bus);
    };
  }

  /** The gateway's open /ws sockets. */
  observeLiveSockets(count: () => number): void {
    this.probes.add(async () => { this.wsSockets.set({ service: 'gateway' }, count()); });
  }

  /** Counts a request the gateway shed on its way to `upstream`: `route` is the pattern, as in the request durations. */
  countShed(upstream: string, route: string, answer: 'refused' | 'held'): void {
    this.shed.inc({ service: 'gateway', upstream, route, answer });
  }

  /** The gateway's requests in flight to each service and waiting for a slot, read at every scrape. */
  observeUpstreams(read: () => Record<string, { inFlight: number; queued: number }>): void {
    this.probes.add(async () => {
      for (const [upstream, { inFlight, queued }] of Object.entries(read())) {
        this.upstreamRequests.set({ service: 'gateway', upstream, state: 'in_flight' }, inFlight);
        this.upstreamRequests.set({ service: 'gateway', upstream, state: 'queued' }, queued);
      }
    });
  }

  /** The exposition text, after reading every probe. */
  async scrape(): Promise<string> {
    for (const metric of this.pulled) metric.reset();
    await Promise.all([...this.probes].map((probe) => withTimeout(probe()).catch(() => undefined)));
    return this.registry.metrics();
  }

  /** Serves GET /metrics on its own listener (port 0: any free port, said in `url`). */
  async serve(listen: { host: string; port: number }): Promise<MetricsServer> {
    const server: Server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at GET /metrics\n');
        return;
      }
      this.scrape().then(
        (text) => response.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (err: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(err)}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listen.port, listen.host, () => { server.off('error', reject); resolve(); });
    });
    const { port } = server.address() as AddressInfo;
    const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
    return {
      url: `http://${host}:${port}/metrics`,
      close: () => new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    };
  }
}

/** A process's metrics, served when METRICS_PORT is set (config.ts MetricsSettings); undefined otherwise. */
export async function startMetrics(settings: { METRICS_PORT?: number | undefined; METRICS_HOST: string }): Promise<{ metrics: Metrics; server: MetricsServer } | undefined> {
  if (settings.METRICS_PORT === undefined) return undefined;
  const metrics = new Metrics();
  return { metrics, server: await metrics.serve({ host: settings.METRICS_HOST, port: settings.METRICS_PORT }) };
}

function withTimeout(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS); });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
