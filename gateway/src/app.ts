/**
 * The gateway: the only public entry. Serves the web app, proxies /api/* to the owning service (proxy.ts),
 * terminates sessions and lists them to their users (sessions/), refuses cross-site state changes (csrf.ts),
 * rate-limits logins, sign-ups, referral checks and users' writes for others (rate-limits.ts), runs the live channel
 * /ws with its caps on sockets (live.ts), sheds what a busy service cannot take (admission.ts) and reports
 * the health and saturation of all seven services at /api/health. Headers only the gateway may set are stripped from every incoming
 * request; the request id travels on to the services' logs. gateway/README.md describes the design and the settings.
 */
import { existsSync } from 'node:fs';
import gatewayPackage from '../package.json' with { type: 'json' };
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { Redis } from 'ioredis';
import {
  ApiRoutes, formRefusals, MULTIPART_OVERHEAD_BYTES, openApiDocument, ReadyResponse, routerPath, Routes, ServiceNames, type MultipartForm, type ServiceHealth,
  type ServiceName,
} from '@puente/contracts';
import {
  CLIENT_IP_HEADER, createHttpApp, INTERNAL_TOKEN_HEADER, MemoryVersionStore, REQUEST_ID_HEADER, tooManyRequests, TrackedRedisVersionStore, unauthorized,
  type EventBus, type InternalAuth, type Logger, type Metrics, type SubscriptionHandle, type TrustProxy, type VersionStore,
} from '@puente/platform';
import { createAdmission, type AdmissionLimits } from './admission.ts';
import { admitUsers } from './user-admission.ts';
import { createOriginCheck, crossSiteRefused } from './csrf.ts';
import { defaultLiveLimits, LiveHub, type LiveLimits } from './live.ts';
import { notificationFirstPolls } from './first-polls.ts';
import { createPolledReads } from './polled.ts';
import { securityHeaders } from './security-headers.ts';
import { GATEWAY_ONLY_HEADERS, registerServiceProxies } from './proxy.ts';
import pg from 'pg';
import { createRateLimiter, defaultRateLimits, type LimitStore, type RateLimits } from './rate-limits.ts';
import { PostgresSessionStore } from './sessions/postgres-store.ts';
import { RedisSessionStore } from './sessions/redis-store.ts';
import { CachedSessionStore } from './sessions/cached-store.ts';
import { hearRevocations } from './sessions/revocations.ts';
import { createSessions, type Session } from './sessions/sessions.ts';
import { registerSessionRoutes } from './sessions/routes.ts';
import { MemorySessionStore, type ListableSessionStore } from './sessions/store.ts';

export { gatewaySettings, gatewayOptionsFrom, LISTEN_BACKLOG, type GatewaySettings } from './settings.ts';
export { defaultRateLimits, parseLimit, type RateLimits } from './rate-limits.ts';
export { MemorySessionStore, type ListableSessionStore, type SessionStore } from './sessions/store.ts';
export { RedisSessionStore } from './sessions/redis-store.ts';
export { SESSION_COOKIE, sessionCookieHeader } from './sessions/sessions.ts';

/** Where the API's documentation is served. */
export const API_DOCS_PREFIX = '/api/docs';

/** The schema of the gateway's tables when it keeps sessions and counters in PostgreSQL. */
const GATEWAY_SCHEMA = 'gateway';

/** Largest request body (JSON or other), api-conventions: 413 above it (a route taking a file: allowUploads). */
export const BODY_LIMIT = 1024 * 1024;

export interface GatewayOptions {
  logger: Logger;
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** Signs callers' internal tokens as the gateway and verifies identity's session actions (SERVICE_SIGNING_KEY, SERVICE_PUBLIC_KEYS). */
  auth: InternalAuth;
  /** Signs the session cookie (SESSION_SECRET, at least 32 characters). */
  sessionSecret: string;
  /** The live channel's source: the gateway subscribes to the notification topic in a group of its own. */
  bus: EventBus;
  /** Redis for sessions and rate-limit counters, shared by every gateway instance (distributed mode). */
  redisUrl?: string;
  /**
   * Without Redis: PostgreSQL for sessions and rate-limit counters, in schema `gateway`, for a single gateway
   * instance (embedded mode, so a restart keeps both). Without either, both live in this process's memory (tests).
   */
  databaseUrl?: string;
  /**
   * The services' versions of polled data, so the gateway answers unchanged polls itself: the embedded runner's
   * shared memory store; with Redis (and none given), the services' Redis keys, tracked. Without either, polls go
   * through.
   */
  versions?: VersionStore;
  /** A session store given by the caller (tests sharing one store between instances); the caller closes it. */
  sessionStore?: ListableSessionStore;
  /** Session lifetime (default 168 hours, SESSION_TTL_HOURS). */
  sessionTtlHours?: number;
  /**
   * How long a session keeps working after the gateway last read it while the session store cannot be reached
   * (default 10 minutes, SESSION_STALE_IF_ERROR_MINUTES; cached-store.ts).
   */
  sessionStaleIfErrorMinutes?: number;
  /** Limits replacing the production defaults (defaultRateLimits), one by one. */
  rateLimits?: Partial<RateLimits>;
  /** Origins besides the app's own from which state-changing requests are accepted (ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
  /**
   * Which X-Forwarded-* hops to believe (client IP, HTTPS) from the reverse proxies in front (TRUST_PROXY): none
   * (default), a hop count, or the proxies' addresses.
   */
  trustProxy?: TrustProxy;
  /** Folder of the built web app (web/dist); the gateway serves it with an SPA fallback when present. */
  webRoot?: string;
  /** How often /ws sockets are pinged and their sessions re-checked (default 30 s). */
  livePingIntervalMs?: number;
  /** The caps on this instance's /ws sockets, per user and in all (LIVE_SOCKETS_PER_USER, LIVE_SOCKETS_MAX). */
  liveLimits?: LiveLimits;
  /** Each service's gate: requests in flight to it at once, and the longest one waits (ADMISSION_CONCURRENCY, ADMISSION_QUEUE_MS). */
  admissionLimits?: AdmissionLimits;
  /** The process's metrics (request durations, /ws sockets, the live channel's consumer), served apart (METRICS_PORT). */
  metrics?: Metrics;
  /**
   * Admin routes need a session signed in with two-factor sign-in: true in production (platform adminsNeedTwoFactor,
   * from NODE_ENV); false by default (tests, the demo).
   */
  adminsNeedTwoFactor?: boolean;
}

export const defaultWebRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function buildGateway(opts: GatewayOptions): Promise<FastifyInstance> {
  const app = createHttpApp({
    logger: opts.logger, trustProxy: opts.trustProxy, bodyLimit: BODY_LIMIT, requestMetrics: opts.metrics?.requestMetrics('gateway'),
    requestLog: 'each',
  });

  // Bodies are read whole (within the limit: 413 above it) and forwarded byte for byte; services parse them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
  allowUploads(app);

  app.addHook('onRequest', securityHeaders({ isDocument: (url) => url.startsWith(API_DOCS_PREFIX) }));
  if (opts.sessionSecret.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
  await app.register(fastifyCookie, { secret: opts.sessionSecret });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });

  // No queue while disconnected: a command fails at once instead of waiting for the reconnection, so a request that
  // needs Redis hears within milliseconds that it is away, and one that does not never waits on it (store-guard.ts).
  const redis = opts.redisUrl ? new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  redis?.on('error', (err) => opts.logger.warn({ err }, 'redis (sessions, rate limits) is not reachable'));
  // Connected before the first request (which would otherwise find no connection yet); a Redis down at start delays
  // the start by REDIS_CONNECT_WAIT_MS at most.
  if (redis) await connected(redis);
  const pool = !redis && opts.databaseUrl ? new pg.Pool({ connectionString: opts.databaseUrl, max: 2 }) : undefined;
  pool?.on('error', (err) => opts.logger.warn({ err }, 'the database (sessions, rate limits) is not reachable'));
  if (pool) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${GATEWAY_SCHEMA}`);
  const owned: { close(): Promise<void> }[] = [];
  const own = <T extends { close(): Promise<void> }>(store: T): T => (owned.push(store), store);
  const storedSessions: ListableSessionStore = opts.sessionStore ?? own(
    redis ? new RedisSessionStore(redis) : pool ? await PostgresSessionStore.open(pool, GATEWAY_SCHEMA) : new MemorySessionStore());
  app.decorateRequest('sessionLookup', null);
  const sessionTtlMs = (opts.sessionTtlHours ?? 168) * 3_600_000;
  const sessionStore = new CachedSessionStore(storedSessions, {
    sessionTtlMs, logger: opts.logger,
    ...(opts.sessionStaleIfErrorMinutes ? { staleMs: opts.sessionStaleIfErrorMinutes * 60_000 } : {}),
  });
  const sessions = createSessions({ store: sessionStore, ttlMs: sessionTtlMs });
  const limitStore: LimitStore = redis ? { kind: 'redis', redis } : pool ? { kind: 'postgres', pool, schema: GATEWAY_SCHEMA } : { kind: 'memory' };
  const audits = new Set<Promise<void>>();
  const limiter = await createRateLimiter({
    store: limitStore, limits: { ...defaultRateLimits, ...opts.rateLimits },
    onLoginRefused: (request, email) => {
      const audit = auditRefusedLogin(opts, request, email).finally(() => audits.delete(audit));
      audits.add(audit);
    },
  });
  const origins = createOriginCheck(opts.allowedOrigins ?? []);
  const liveLimits = opts.liveLimits ?? defaultLiveLimits;
  const hub = new LiveHub({
    bus: opts.bus, logger: opts.logger, isSessionLive: (id) => sessions.isLive(id), limits: liveLimits,
    ...(opts.livePingIntervalMs ? { pingIntervalMs: opts.livePingIntervalMs } : {}),
  });
  opts.metrics?.observeLiveSockets(() => hub.openSockets());
  opts.metrics?.observeBus(opts.bus);
  const admission = createAdmission(opts.admissionLimits);
  opts.metrics?.observeUpstreams(() => admission.saturation());
  const busyUtilization = opts.admissionLimits?.busyUtilization;
  const userAdmission = busyUtilization ? admitUsers(app.server, { busyUtilization, metrics: opts.metrics }) : undefined;
  // Subscribed when the app is ready (listen or ready()), so a build that fails midway leaves no consumer behind.
  // Identity's userSessionsEnded reaches every instance: each refuses the ended sessions from its memory at once.
  let revocationsHeard: SubscriptionHandle | undefined;
  app.addHook('onReady', async () => {
    await hub.start();
    revocationsHeard = await hearRevocations(opts.bus, opts.logger, (revocation) => hub.closeSessions(sessionStore.revoke(revocation)));
  });
  app.addHook('onClose', async () => {
    userAdmission?.stop();
    // A refused login's audit still on its way is let through (its own timeout bounds the wait).
    await Promise.all(audits);
    await revocationsHeard?.stop();
    await hub.stop();
    await sessionStore.close();
    await Promise.all(owned.map((s) => s.close()));
    await redis?.quit().catch(() => redis.disconnect());
    await pool?.end();
  });

  // Nobody outside may speak for a service or for the gateway; nobody elsewhere may change state here.
  app.addHook('onRequest', async (request) => {
    for (const name of GATEWAY_ONLY_HEADERS) delete request.headers[name];
    await origins.guardApi(request);
  });

  app.get(Routes.gateway.health.path, async (_request, reply) => {
    const entries = await Promise.all(ServiceNames.map(async (name) => [name, await probe(opts.serviceUrls[name])] as const));
    const services = Object.fromEntries(entries) as Record<ServiceName, ServiceHealth>;
    const status = entries.every(([, s]) => s === 'ok') ? 'ok' : 'degraded';
    // 503 only when a service cannot serve: one riding out a bus or Redis outage still answers its routes.
    return reply.status(entries.some(([, s]) => s === 'down') ? 503 : 200).send({ status, services, saturation: admission.saturation(), users: userAdmission?.state() ?? null });
  });

  // Logout is the gateway's: the session is deleted from the store, so the old cookie is refused everywhere.
  app.post(Routes.gateway.logout.path, async (request, reply) => {
    const ended = await sessions.end(request, reply);
    if (ended) hub.closeSessions([ended.id]);
    return { message: 'Logged out' };
  });

  // The caller's signed-in devices; before the proxies, whose answers its hook records the sessions' use from.
  registerSessionRoutes(app, {
    sessions, listing: storedSessions, ttlMs: sessionTtlMs, onSessionsEnded: (ids) => hub.closeSessions(ids),
  });

  await registerApiDocs(app);

  const liveSessions = new WeakMap<FastifyRequest, Session>();
  app.get('/ws', {
    websocket: true,
    preValidation: async (request, reply) => {
      if (!origins.allowsHandshake(request)) throw crossSiteRefused();
      // A full instance refuses before asking the session store; the browser reconnects with backoff.
      if (hub.refusal()) throw tooManyRequests('The live channel is busy right now. Please try again in 1 minute.', 60);
      const session = await sessions.current(request, reply);
      if (!session) throw unauthorized('Sign in to open the live channel.');
      if (hub.refusal(session.userId)) {
        throw tooManyRequests(
          `Too many live connections are open for this account (at most ${liveLimits.perUser}). Close another tab or window, or try again in 1 minute.`, 60);
      }
      liveSessions.set(request, session);
    },
  }, (socket, request) => {
    const session = liveSessions.get(request)!;
    hub.add(socket, session.userId, session.id);
  });

  // With Redis, every poll reads its versions: remembered here until Redis says they changed (no round trip).
  const versions = opts.versions ?? (redis ? own(new TrackedRedisVersionStore(redis)) : new MemoryVersionStore());
  // Every change of polled data, announced at once on the sockets of the users it concerns (live.ts).
  hub.announceChanges(versions);
  await registerServiceProxies(app, {
    serviceUrls: opts.serviceUrls, auth: opts.auth, sessions, limiter, polled: createPolledReads({
      versions, logger: opts.logger, ownBatches: [notificationFirstPolls(() => opts.serviceUrls.notification, opts.auth)],
    }),
    onSessionsEnded: (ids) => hub.closeSessions(ids), adminsNeedTwoFactor: opts.adminsNeedTwoFactor ?? false, admission, metrics: opts.metrics,
  });

  const webRoot = opts.webRoot ?? defaultWebRoot;
  if (existsSync(webRoot)) {
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: ['index.html'] });
    // SPA fallback: any other GET outside /api loads the app, whose router shows the page (or its 404 page).
    app.get('/*', async (request, reply) => {
      if (request.url.startsWith('/api/')) {
        return reply.status(404).send({ message: `No route for GET ${request.url.split('?')[0]}`, code: 'not_found' });
      }
      return reply.type('text/html').sendFile('index.html');
    });
  }
  return app;
}

/**
 * A route that takes a file (its declaration's `multipart`: a chat attachment) may carry it: its body limit is the
 * file's and a little more, so that the service checks the file and answers with its own words; and a body over
 * even that gets the same words here. Every other route keeps BODY_LIMIT.
 */
function allowUploads(app: FastifyInstance): void {
  const forms = new Map<string, MultipartForm>(ApiRoutes.flatMap((route) => (route.multipart ? [[`${route.method} ${routerPath(route)}`, route.multipart]] : [])));
  app.addHook('onRoute', (route) => {
    const form = [route.method].flat().map((method) => forms.get(`${method} ${route.url}`)).find(Boolean);
    if (!form) return;
    route.bodyLimit = form.maxBytes + MULTIPART_OVERHEAD_BYTES;
    const tooLarge = formRefusals(form).tooLarge;
    route.errorHandler = (error, request, reply) => {
      if ((error as { statusCode?: number }).statusCode !== 413) return void app.errorHandler(error, request, reply);
      void reply.status(413).send({ message: tooLarge.message, code: tooLarge.code });
    };
  });
}

/** The declarations as OpenAPI 3.1 (/api/docs/openapi.json) and Swagger UI on it (/api/docs). */
async function registerApiDocs(app: FastifyInstance): Promise<void> {
  const document = openApiDocument(gatewayPackage.version);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, uiConfig: { url: `${API_DOCS_PREFIX}/openapi.json` } });
  app.get(`${API_DOCS_PREFIX}/openapi.json`, async () => document);
}

/**
 * A login refused with 429 never reaches identity, which keeps the login audit trail: the gateway tells it, so an
 * admin sees the brute force. The refusal does not wait for it; closing the gateway does.
 */
async function auditRefusedLogin(opts: GatewayOptions, request: FastifyRequest, email: unknown): Promise<void> {
  const identity = opts.serviceUrls.identity;
  if (!identity) return;
  try {
    const token = await opts.auth.sign({ kind: 'service', service: 'gateway' }, 'identity');
    const res = await fetch(new URL('/internal/login-refused', identity), {
      method: 'POST',
      headers: {
        'content-type': 'application/json', [INTERNAL_TOKEN_HEADER]: token, [CLIENT_IP_HEADER]: request.ip,
        [REQUEST_ID_HEADER]: request.id, ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      },
      body: JSON.stringify({ email: typeof email === 'string' ? email : '' }),
      signal: AbortSignal.timeout(5_000),
    });
    await res.body?.cancel(); // frees the connection for the next request
    if (!res.ok) throw new Error(`identity answered ${res.status}`);
  } catch (err) {
    request.log.error({ err }, 'could not audit a rate-limited login');
  }
}

/** How long a start waits for Redis to connect before going on without it. */
const REDIS_CONNECT_WAIT_MS = 5_000;

async function connected(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, REDIS_CONNECT_WAIT_MS);
    function done() {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    }
    redis.once('ready', done);
  });
}

async function probe(url: string | undefined): Promise<ServiceHealth> {
  if (!url) return 'down';
  try {
    const res = await fetch(new URL('/ready', url), { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) { await res.body?.cancel(); return 'down'; }
    const ready = ReadyResponse.safeParse(await res.json());
    return ready.success && ready.data.status === 'degraded' ? 'degraded' : 'ok';
  } catch {
    return 'down';
  }
}
