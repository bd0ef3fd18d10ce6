/**
 * The one Fastify factory every service and the gateway start from: request ids (taken from x-request-id or
 * made), pino logging, the 1 MB JSON body limit, JSON bodies that must be objects, the api-conventions error body
 * from one handler (router refusals included), JSON 404s, GET /health, and (for services) the caller taken from the
 * gateway's internal token.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import { INTERNAL_TOKEN_HEADER, type InternalAuth } from '../auth.ts';
import { RequestLogger } from '../logger.ts';
import { isOutage } from '../messaging/outages.ts';
import type { RequestMetrics } from '../observability/metrics.ts';
import { nameRequestSpans } from '../observability/spans.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
export const GENERIC_5XX_MESSAGE = 'Something went wrong. Please try again.';
/** A request that failed because the service's database (or Redis) cannot be reached: nothing wrong with it. */
export const OUTAGE_MESSAGE = 'This part of Puente is not available right now. Please try again in a minute.';
export const BODY_NOT_OBJECT_MESSAGE = 'Request body must be a JSON object';

export interface ServedRoute { method: string; url: string }

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on this app, in order. */
    servedRoutes: readonly ServedRoute[];
  }
}

/**
 * Which X-Forwarded-For/-Proto/-Host hops request.ip, request.protocol and request.host believe: none (false), the
 * last `n` (n proxies in front, each appending the address it was reached from), or those from these addresses or
 * CIDR ranges (@fastify/proxy-addr's notation). Never every hop: a client writes its own X-Forwarded-For.
 */
export type TrustProxy = false | number | readonly string[];

export interface HttpAppOptions {
  logger: Logger;
  /** When given, x-internal-token is verified on every request and the caller set on request.caller. */
  auth?: InternalAuth;
  bodyLimit?: number;
  trustProxy?: TrustProxy;
  /** Records every answered request (Metrics.requestMetrics: one histogram observation). */
  requestMetrics?: RequestMetrics;
  /** Admin access needs a session signed in with two-factor sign-in (production); false by default (auth.ts). */
  adminsNeedTwoFactor?: boolean;
  /**
   * Which requests get a line: `each` (the gateway: one line per request, at info) or `failed-or-slow` (a service
   * behind it: a 5xx or an answer slower than SLOW_REQUEST_MS, at warn; the others at debug only, as the gateway's
   * line covers them).
   */
  requestLog?: 'each' | 'failed-or-slow';
}

/** An answer slower than this gets a line at a service even when it succeeded. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * Fastify's request lines (its two a request: incoming, completed) as HttpAppOptions.requestLog says: at most one a
 * request, written once it is answered.
 */
class RequestLines extends LogController {
  readonly #each: boolean;

  constructor(each: boolean) {
    super();
    this.#each = each;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = Math.round(reply.elapsedTime);
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime, ...(error ? { err: error } : {}) };
    if (error || reply.statusCode >= 500) request.log.warn(line, 'request failed');
    else if (responseTime >= SLOW_REQUEST_MS) request.log.warn(line, 'slow request');
    else if (this.#each) request.log.info(line, 'request completed');
    else request.log.debug(line, 'request completed');
  }
}

/**
 * Fastify's trustProxy for a TrustProxy. Fastify trusts nothing when given a number (a count alone cannot tell a
 * proxy from a client reaching the server directly), so a count is given as proxy-addr's trust function with
 * Express's meaning: the first `n` hops from the socket are proxies. It suits a server that only its proxies reach.
 */
function fastifyTrustProxy(trust: TrustProxy = false): FastifyServerOptions['trustProxy'] {
  if (typeof trust === 'number') return trust > 0 ? (_address: string, hop: number) => hop < trust : false;
  return trust === false || trust.length === 0 ? false : [...trust];
}

export function createHttpApp(opts: HttpAppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: opts.logger,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    trustProxy: fastifyTrustProxy(opts.trustProxy),
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    childLoggerFactory: (logger, bindings, options) => new RequestLogger(logger as never, bindings, options) as never,
    logController: new RequestLines((opts.requestLog ?? 'failed-or-slow') === 'each'),
    routerOptions: { ignoreTrailingSlash: true },
    // What the router refuses before any hook runs (a malformed percent-encoding such as a lone surrogate's bytes,
    // a path parameter over 100 characters) gets the api-conventions body too, without echoing the path.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
      reply.header(REQUEST_ID_HEADER, request.id);
      const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A part of the URL is too long' : 'Malformed URL';
      // The reply is sent, not awaited: Fastify's reply is thenable, and a router error has nothing to wait for.
      void reply.status(status).send(status >= 500 ? { message: GENERIC_5XX_MESSAGE, code: 'internal' } : { message, code: error.code });
    },
  }) as unknown as FastifyInstance;

  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  nameRequestSpans(app); // only when tracing: each request's span named after its route
  const requestMetrics = opts.requestMetrics;
  if (requestMetrics) {
    app.addHook('onResponse', (request, reply, done) => {
      requestMetrics(request, reply);
      done();
    });
  }

  // Every route this app serves, so a test can hold it against the declarations (HEAD routes Fastify adds itself).
  const served: ServedRoute[] = [];
  app.decorate('servedRoutes', served);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') served.push({ method, url: route.url });
  });

  // Every JSON body of the API is an object: `null`, an array or a scalar is a 400 here, once, rather than a
  // TypeError in whichever handler first reads a field of it. Fastify's own parser (with its prototype-poisoning
  // checks) still does the parsing. The gateway replaces every parser (it forwards raw bytes), so this is the
  // services' check.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    void parseJson(request, String(body), (err, value) => { // parseAs 'string': already a string
      if (err) return done(err, undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(new AppError(400, 'bad_request', BODY_NOT_OBJECT_MESSAGE), undefined);
      }
      return done(null, value);
    });
  });

  app.decorateRequest('caller', null);
  app.decorate('adminsNeedTwoFactor', opts.adminsNeedTwoFactor ?? false);
  if (opts.auth) {
    const auth = opts.auth;
    app.addHook('onRequest', async (request) => {
      request.caller = null;
      const token = request.headers[INTERNAL_TOKEN_HEADER];
      if (typeof token !== 'string' || token.length === 0) return;
      try {
        request.caller = await auth.verify(token);
      } catch {
        request.log.warn('rejected an invalid internal token');
      }
    });
  }

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send({
        message: error.message,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A declared schema refused the input (serve.ts): the contract's messages, first field's in `message`.
      const errors = error.validation.map((v) => ({ field: v.instancePath.replace(/^\//, '').replaceAll('/', '.'), message: v.message }));
      return reply.status(400).send({ message: errors[0]?.message ?? 'Invalid input', code: 'validation_failed', errors });
    }
    if (isOutage(error)) {
      request.log.warn({ err: error }, 'request failed: a server the service needs cannot be reached');
      return reply.status(503).send({ message: OUTAGE_MESSAGE, code: 'service_unavailable' });
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({ message: GENERIC_5XX_MESSAGE, code: 'internal' });
    }
    const message = status === 413 ? 'Request body is too large (limit 1 MB)'
      : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'Unsupported content type; send JSON'
      : error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError ? 'Malformed JSON body'
      : error.message;
    return reply.status(status).send({ message, code: error.code ?? 'bad_request' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}`, code: 'not_found' });
  });

  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  return app;
}
