/**
 * /api/* → the owning service (routing.ts), through @fastify/http-proxy. On the way up: the rate limits are
 * checked, the headers only the gateway may set are replaced (the caller's internal token when the session is
 * valid, the browser's IP, the request id) and the session cookie is left out. On the way down: identity's
 * session action (grant, revoke-all, revoke-others) is verified, acted on and stripped, and a login's rate-limit
 * points are settled (rate-limits.ts).
 */
import { PassThrough } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import type { ServiceName } from '@puente/contracts';
import {
  AppError, INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER, SESSION_ACTION_HEADER, type InternalAuth,
} from '@puente/platform';
import { routingTable } from './routing.ts';
import type { RateLimiter } from './rate-limits.ts';
import { SESSION_COOKIE, type Sessions } from './sessions/sessions.ts';

/** The browser's address as the gateway saw it (request.ip; X-Forwarded-For only behind a trusted proxy). */
export const CLIENT_IP_HEADER = 'x-client-ip';
/** Headers only the gateway may send to a service: whatever a browser sends under these names is dropped. */
export const GATEWAY_ONLY_HEADERS = [INTERNAL_TOKEN_HEADER, CLIENT_IP_HEADER, SESSION_ACTION_HEADER] as const;

export interface ProxyDeps {
  serviceUrls: Partial<Record<ServiceName, string>>;
  auth: InternalAuth;
  sessions: Sessions;
  limiter: RateLimiter;
  /** Told of the sessions a revocation ended (the live hub closes their sockets). */
  onSessionsEnded: (sessionIds: string[]) => void;
}

interface Exchange {
  internalToken?: string;
  sessionAction?: string;
}

export async function registerServiceProxies(app: FastifyInstance, deps: ProxyDeps): Promise<void> {
  const exchanges = new WeakMap<FastifyRequest, Exchange>();

  for (const { prefix, service } of routingTable) {
    const upstream = deps.serviceUrls[service];
    if (!upstream) {
      // A deployment without this service: say so instead of failing to start.
      app.all(prefix, unavailable(service));
      app.all(`${prefix}/*`, unavailable(service));
      continue;
    }
    await app.register(httpProxy, {
      upstream,
      prefix,
      rewritePrefix: prefix.replace(/^\/api/, ''),
      // Services redirect to app paths (identity's /api/login → /login): keep their Location as they wrote it.
      internalRewriteLocationHeader: false,
      httpMethods: ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'],
      // Giving a preValidation hook also keeps the plugin's own body parsers out: the gateway's (app.ts) apply,
      // which read the body whole, within the size limit.
      preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
        await deps.limiter.check(request);
        const session = await deps.sessions.current(request, reply);
        const exchange: Exchange = {};
        if (session) {
          exchange.internalToken = await deps.auth.sign({ kind: 'user', userId: session.userId, role: session.role, sessionId: session.id });
        }
        exchanges.set(request, exchange);
        // Forward the bytes as they came (a JSON body would otherwise be re-serialised, breaking Stripe's signature).
        if (Buffer.isBuffer(request.body)) {
          const body = new PassThrough();
          body.end(request.body);
          request.body = body;
        }
      },
      // reply-from types these hooks for any server kind; this gateway is plain HTTP/1 (asPlain).
      replyOptions: {
        rewriteRequestHeaders: (anyRequest, headers) => {
          const request = asPlain(anyRequest);
          return upstreamHeaders(request, headers, exchanges.get(request)?.internalToken);
        },
        rewriteHeaders: (headers, anyRequest) => {
          const request = anyRequest && asPlain(anyRequest);
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
        onResponse: (anyRequest, anyReply, res) => {
          const request = asPlain(anyRequest);
          const reply = anyReply as unknown as FastifyReply;
          void afterResponse(deps, request, reply, res.statusCode ?? 0, exchanges.get(request)?.sessionAction)
            .then(() => reply.send(res.stream), (err: unknown) => {
              res.stream.destroy();
              reply.send(err);
            });
        },
      },
    });
  }
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
      await deps.sessions.grant(request, reply, action.userId, action.role);
    } else {
      const ended = await deps.sessions.revokeUser(request, reply, action.userId, action.action === 'revoke-others' ? action.keepSessionId : undefined);
      deps.onSessionsEnded(ended);
    }
  } catch (err) {
    request.log.error({ err, action: action.action }, 'the session store failed');
    throw new AppError(503, 'session_store_unavailable', 'Sessions are not available right now. Please try again later.');
  }
}

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

const asPlain = (request: unknown) => request as FastifyRequest;

function unavailable(service: ServiceName) {
  return async (_request: unknown, reply: FastifyReply) =>
    reply.status(503).send({ message: `The ${service} service is not available right now. Please try again later.`, code: 'service_unavailable' });
}
