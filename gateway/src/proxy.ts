/**
 * Every declared /api route of a service (its declaration in @puente/contracts: method, path, who may call) →
 * that service, through @fastify/reply-from. Nothing else is proxied: a path no service declares is a 404 here. On
 * the way up, before the body is read (so a visitor cannot make the gateway hold a 5 MB upload): the caller's session
 * is required where the route is for users or admins (401, 403 before any service is bothered) and the rate limits
 * are checked (those keyed by the body's email once it is read); a request polls answer here go no further, the rest
 * wait for a slot at their service's gate, or are shed when it is too busy (admission.ts); then the headers only the gateway
 * may set are replaced (the caller's internal token when the session is valid, the browser's IP, the request id)
 * and the session cookie is left out. An admin route needs an admin's session, and in production one signed in
 * with two-factor sign-in (403 `two_factor_required` otherwise). On the way down: identity's session action (grant,
 * perhaps ending the user's other sessions; revoke-all, revoke-others) is verified, acted on and stripped, and a
 * login's rate-limit points are settled (rate-limits.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { buffer } from 'node:stream/consumers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { ApiRoutes, routerPath, Routes, type ApiRoute, type ServiceName } from '@puente/contracts';
import {
  adminAccess, adminTwoFactorRequired, CLIENT_IP_HEADER, forbidden, INTERNAL_TOKEN_HEADER, INTERNAL_TOKEN_TTL_SECONDS, REQUEST_ID_HEADER, SESSION_ACTION_HEADER,
  unauthorized, type InternalAuth, type Metrics,
} from '@puente/platform';
import { refusal, releaseWhenDone, STALE_HEADER, type Admission } from './admission.ts';
import { serviceUrlOf, type OwnAnswer, type PolledReads } from './polled.ts';
import type { RateLimiter } from './rate-limits.ts';
import { SESSION_COOKIE, sessionsUnavailable, type Session, type Sessions } from './sessions/sessions.ts';

/** Headers only the gateway may send to a service: whatever a browser sends under these names is dropped. */
export const GATEWAY_ONLY_HEADERS = [INTERNAL_TOKEN_HEADER, CLIENT_IP_HEADER, SESSION_ACTION_HEADER] as const;

export interface ProxyDeps {
  serviceUrls: Partial<Record<ServiceName, string>>;
  auth: InternalAuth;
  sessions: Sessions;
  limiter: RateLimiter;
  /** Polls answered here while their versions are unchanged (polled.ts). */
  polled: PolledReads;
  /** Told of the sessions a revocation ended (the live hub closes their sockets). */
  onSessionsEnded: (sessionIds: string[]) => void;
  /**
   * Admin routes need a session signed in with two-factor sign-in (production: platform adminsNeedTwoFactor); an
   * admin without it gets 403 `two_factor_required`, saying where to turn it on.
   */
  adminsNeedTwoFactor: boolean;
  /** Each service's gate: requests in flight and waiting, and what was shed (admission.ts). */
  admission: Admission;
  /** Counts the requests shed, by route. */
  metrics?: Pick<Metrics, 'countShed'> | undefined;
}

interface Exchange {
  internalToken?: string;
  sessionAction?: string;
  /** A shared polled answer on its way down, to keep under this ETag for the callers waiting for it. */
  shared?: { etag: string; fetched: () => void };
  /** A polled answer whose headers say whether its caller sees the shared one (polled.ts). */
  heard?: (headers: Record<string, unknown>) => void;
  /** Asked on the shared answer kept here: the service's 304 means this caller gets that answer (polled.ts). */
  ifShared?: { etag: string; send: () => Promise<void> };
  /** The caller's own polled answer, to keep for their next first poll (polled.ts). */
  own?: OwnAnswer;
  /** A first poll whose batch was slower than a poll may wait (polled.ts): shed without a turn at the gate. */
  late?: true;
}

/**
 * The caller's internal token for one service (a token names the one service it is for), signed once per session and
 * service and reused for half its life: signing on every proxied request was a fifth of the gateway's time. A revoked
 * session never gets this far (its cookie is refused first). A visitor's call carries the gateway's own token, so that
 * the service believes the browser's address it is told (platform clientAddress) from the gateway alone.
 */
function callerTokens(auth: InternalAuth) {
  const reuseMs = (INTERNAL_TOKEN_TTL_SECONDS * 1000) / 2;
  const tokens = new Map<string, { token: string; until: number }>();
  return async (session: Session | null, service: ServiceName): Promise<string> => {
    const key = session ? `${session.id}:${session.role}:${session.twoFactor === true}:${service}` : `gateway:${service}`;
    const now = Date.now();
    const known = tokens.get(key);
    if (known && known.until > now) return known.token;
    const token = await auth.sign(session ? {
      kind: 'user', userId: session.userId, role: session.role, sessionId: session.id, ...(session.twoFactor ? { twoFactor: true } : {}),
    } : { kind: 'service', service: 'gateway' }, service);
    if (tokens.size >= 100_000) tokens.clear();
    tokens.set(key, { token, until: now + reuseMs });
    return token;
  };
}

/** The routes the gateway proxies, by service: every declared /api route of a service. */
export function proxiedRoutes(): Map<ServiceName, ApiRoute[]> {
  const byService = new Map<ServiceName, ApiRoute[]>();
  for (const route of ApiRoutes) {
    if (route.service === 'gateway' || route.access === 'internal') continue;
    byService.set(route.service, [...(byService.get(route.service) ?? []), route]);
  }
  return byService;
}

export async function registerServiceProxies(app: FastifyInstance, deps: ProxyDeps): Promise<void> {
  const exchanges = new WeakMap<FastifyRequest, Exchange>();
  const callerToken = callerTokens(deps.auth);
  const admitted = admission(deps);

  const proxyOptions = (service: ServiceName) => ({
    retryDelay: retryOnceIfUnsent,
    rewriteRequestHeaders: (request: FastifyRequest, headers: IncomingHttpHeaders) => {
      const exchange = exchanges.get(request);
      const upstream = upstreamHeaders(request, headers, exchange?.internalToken);
      if (exchange?.ifShared) upstream['if-none-match'] = exchange.ifShared.etag;
      return upstream;
    },
    rewriteHeaders: (headers: IncomingHttpHeaders, request: FastifyRequest | undefined) => {
      const action = headers[SESSION_ACTION_HEADER];
      if (action !== undefined) {
        delete headers[SESSION_ACTION_HEADER];
        if (service === 'identity' && typeof action === 'string' && request) {
          const exchange = exchanges.get(request);
          if (exchange) exchange.sessionAction = action;
        } else {
          request?.log.warn({ service }, 'ignored a session action from a service other than identity');
        }
      }
      const setCookie = headers['set-cookie'];
      if (Array.isArray(setCookie)) headers['set-cookie'] = setCookie.filter((c) => !c.startsWith(`${SESSION_COOKIE}=`));
      return headers;
    },
    // A service that cannot be reached (down, restarting, refusing connections) is a 503 the browser can read, not
    // a 500: the request did not fail, the service is missing. Its login points are given back.
    onError: (reply: FastifyReply, { error }: { error: Error }) => {
      exchanges.get(reply.request)?.shared?.fetched();
      if (!unreachable(error)) return reply.send(error);
      reply.request.log.warn({ service, err: error.cause ?? error }, 'service unreachable');
      void deps.limiter.settle(reply.request, 503).catch(() => {});
      return unavailable(service)(reply.request, reply);
    },
    onResponse: (request: FastifyRequest, reply: FastifyReply, res: { statusCode?: number; stream: NodeJS.ReadableStream & { destroy(): void } }) => {
      const exchange = exchanges.get(request);
      if ((res.statusCode ?? 500) < 400) exchange?.heard?.(reply.getHeaders());
      void afterResponse(deps, request, reply, res.statusCode ?? 0, exchange?.sessionAction)
        .then(async () => {
          if (exchange?.ifShared && res.statusCode === 304) {
            // The caller sees the shared answer (the 304 answers the If-None-Match sent for them): theirs is the kept one.
            res.stream.resume();
            reply.removeHeader('content-length');
            return await exchange.ifShared.send();
          }
          if (exchange?.own && res.statusCode === 200) return await deps.polled.keep(reply, exchange.own, reply.getHeaders(), await buffer(res.stream));
          const shared = exchange?.shared;
          if (!shared) return reply.send(res.stream);
          try {
            if (res.statusCode !== 200) return reply.send(res.stream);
            return await deps.polled.send(request, reply, shared.etag, reply.getHeaders(), await buffer(res.stream));
          } finally {
            shared.fetched();
          }
        })
        .catch((err: unknown) => {
          exchange?.shared?.fetched();
          // The answer is dropped unread: undici reports that as an AbortError, which with no listener would be
          // an uncaught exception (the process's end) whenever a session could not be stored.
          res.stream.on('error', () => {});
          res.stream.destroy();
          reply.send(err);
        });
    },
  });

  for (const [service, routes] of proxiedRoutes()) {
    const upstream = deps.serviceUrls[service];
    await app.register(async (scope) => {
      if (!upstream) {
        // A deployment without this service: say so instead of failing to start.
        for (const route of routes) scope.route({ method: route.method, url: routerPath(route), handler: unavailable(service) });
        return;
      }
      // The request's own line (app.ts, requestLog 'each') says what reply-from's two info lines per call would.
      await scope.register(replyFrom, { base: upstream, disableRequestLogging: true });
      const options = proxyOptions(service);
      for (const route of routes) {
        const limited = deps.limiter.appliesTo(route);
        const readsBody = limited && deps.limiter.readsBody(route);
        scope.route({
          method: route.method,
          url: routerPath(route),
          // onRequest runs before the body is read (preParsing, then the parser); preValidation after.
          onRequest: async (request, reply) => {
            const session = await deps.sessions.current(request, reply);
            if (route.access !== 'visitor' && !session) throw unauthorized();
            if (route.access === 'admin' && session) {
              const access = adminAccess(session, deps.adminsNeedTwoFactor);
              if (access === 'not-admin') throw forbidden('Admins only');
              if (access === 'needs-two-factor') throw adminTwoFactorRequired();
            }
            if (limited && !readsBody) await deps.limiter.check(request, session?.userId);
          },
          preValidation: async (request, reply) => {
            const session = await deps.sessions.current(request, reply); // looked up once, in onRequest
            if (readsBody) await deps.limiter.check(request, session?.userId);
            const exchange: Exchange = {};
            if (route.polled && session) {
              const poll = await deps.polled.answer(route, request, reply, session.userId);
              if (poll.answered) return reply;
              if (poll.etag && poll.fetched) exchange.shared = { etag: poll.etag, fetched: poll.fetched };
              if (poll.heard) exchange.heard = poll.heard;
              if (poll.ifShared) exchange.ifShared = poll.ifShared;
              if (poll.own) exchange.own = poll.own;
              if (poll.late) exchange.late = true;
            }
            exchange.internalToken = await callerToken(session, service);
            exchanges.set(request, exchange);
            if (!await admitted(route, service, request, reply, exchange)) return reply;
          },
          // Whatever became of it (refused, failed, answered), a shared fetch is over once the reply is sent.
          onResponse: async (request) => { exchanges.get(request)?.shared?.fetched(); },
          // The service's path is the browser's without /api; the query goes as it came.
          handler: (request, reply) => reply.from(serviceUrlOf(request.url), withBody(request, options) as never),
        });
      }
    });
  }
}

/**
 * Waits for a slot at the service's gate (admission.ts), held until the answer went out; false when the request was
 * shed instead: answered from the copy of the shared answer held here (a caller who sees it: a market poll), or 503.
 * A first poll that already waited past a poll's budget for its batch (polled.ts) is shed without waiting again.
 */
function admission(deps: ProxyDeps) {
  return async (route: ApiRoute, service: ServiceName, request: FastifyRequest, reply: FastifyReply, exchange: Exchange): Promise<boolean> => {
    const waiting = route === Routes.identity.loginTwoFactor ? 'second-step' : route.polled ? 'poll' : 'call';
    const release = exchange.late ? undefined : await deps.admission.gate(service).enter(waiting);
    if (release) {
      releaseWhenDone(reply, release);
      return true;
    }
    const pattern = routerPath(route);
    if (route.polled?.shared && !exchange.heard) {
      reply.header(STALE_HEADER, '1');
      if (await deps.polled.held(request, reply)) {
        deps.admission.shed(service, 'held');
        deps.metrics?.countShed(service, pattern, 'held');
        return false;
      }
      reply.removeHeader(STALE_HEADER);
    }
    deps.admission.shed(service, 'refused');
    deps.metrics?.countShed(service, pattern, 'refused');
    // Nothing reached the service: a login's points and a user's quota are given back.
    void deps.limiter.settle(request, 503).catch(() => {});
    await reply.send(refusal(reply, route.method !== 'GET'));
    return false;
  };
}

async function afterResponse(deps: ProxyDeps, request: FastifyRequest, reply: FastifyReply, status: number, sessionAction: string | undefined): Promise<void> {
  await deps.limiter.settle(request, status).catch((err: unknown) => request.log.error({ err }, 'settling a login\'s rate-limit points failed'));
  if (!sessionAction) return;
  let action;
  try {
    action = await deps.auth.verifySessionAction(sessionAction);
  } catch (err) {
    request.log.warn({ err }, 'ignored an invalid session action');
    return;
  }
  try {
    if (action.action === 'grant') {
      let granted;
      try {
        granted = await deps.sessions.grant(request, reply, action.userId, { role: action.role, twoFactor: action.twoFactor });
      } catch (err) {
        // Two-factor sign-in was turned off, and its new session could not be stored (the store away): no session
        // keeps the second factor, this one included (the revocation waits for the store: cached-store.ts).
        if (action.endOthers) deps.onSessionsEnded(await deps.sessions.revokeUser(request, reply, action.userId));
        throw err;
      }
      // Two-factor sign-in turned off: no other session keeps the second factor it was signed in with.
      if (action.endOthers) deps.onSessionsEnded(await deps.sessions.revokeUser(request, reply, action.userId, granted.id));
    } else {
      const ended = await deps.sessions.revokeUser(request, reply, action.userId, action.action === 'revoke-others' ? action.keepSessionId : undefined);
      deps.onSessionsEnded(ended);
    }
  } catch (err) {
    request.log.error({ err, action: action.action }, 'the session store failed');
    // The service did its part (a login was checked): the session could not be kept, so the browser is told to retry.
    throw sessionsUnavailable();
  }
}

/**
 * The bytes as they came (a JSON body would otherwise be re-serialised, breaking Stripe's signature), as a buffer
 * rather than a stream so that a retry can send them again.
 */
function withBody<T extends object>(request: FastifyRequest, options: T): T | (T & { body: Buffer; contentType: string }) {
  if (!Buffer.isBuffer(request.body)) return options;
  return { ...options, body: request.body, contentType: request.headers['content-type'] ?? 'application/octet-stream' };
}

/**
 * One more try on a new connection when the first could not reach the service: an instance that just died (a
 * deploy, a crash) behind a shared port leaves refused connects and kept-alive sockets that reset, and the instance
 * beside it would have answered. A refused connect sent nothing, so any method may go again; a reset socket may
 * have delivered the request, so only the methods that are safe to repeat (GET, HEAD, PUT, DELETE) do.
 */
function retryOnceIfUnsent({ err, req, attempt }: { err?: Error; req: { method: string }; attempt: number }): number | null {
  if (attempt > 0 || !err) return null;
  const code = (err as { code?: string }).code ?? (err.cause as { code?: string } | undefined)?.code;
  if (code === 'ECONNREFUSED') return 1;
  return REPEATABLE.has(req.method) && code !== undefined && RESET.has(code) ? 1 : null;
}
const REPEATABLE = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function upstreamHeaders(request: FastifyRequest, incoming: IncomingHttpHeaders, internalToken: string | undefined): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = { ...incoming };
  for (const name of GATEWAY_ONLY_HEADERS) delete headers[name];
  const cookie = withoutSessionCookie(headers.cookie);
  if (cookie) headers.cookie = cookie;
  else delete headers.cookie;
  headers[REQUEST_ID_HEADER] = request.id;
  headers[CLIENT_IP_HEADER] = request.ip;
  if (internalToken) headers[INTERNAL_TOKEN_HEADER] = internalToken;
  return headers;
}

/** Services never see the session token: the Cookie header goes up without it. */
function withoutSessionCookie(cookie: string | undefined): string | undefined {
  if (!cookie) return undefined;
  const kept = cookie.split(';').map((c) => c.trim()).filter((c) => c && !c.startsWith(`${SESSION_COOKIE}=`));
  return kept.length > 0 ? kept.join('; ') : undefined;
}


/** Connection failures reply-from reports (its own codes, or the socket's on the cause). */
const UNREACHABLE = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT',
  'FST_REPLY_FROM_SERVICE_UNAVAILABLE',
]);

function unreachable(error: Error): boolean {
  const codes = [(error as { code?: string }).code, (error.cause as { code?: string } | undefined)?.code];
  return codes.some((code) => code !== undefined && UNREACHABLE.has(code));
}

function unavailable(service: ServiceName) {
  return async (_request: unknown, reply: FastifyReply) =>
    reply.status(503).send({ message: `The ${service} service is not available right now. Please try again later.`, code: 'service_unavailable' });
}
