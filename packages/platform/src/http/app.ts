/**
 * The one Fastify factory every service and the gateway start from: request ids (taken from x-request-id or
 * made), pino logging, the 1 MB JSON body limit, the api-conventions error body from one handler, JSON 404s,
 * GET /health, and (for services) the caller taken from the gateway's internal token.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../errors.ts';
import { INTERNAL_TOKEN_HEADER, type InternalAuth } from '../auth.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
export const GENERIC_5XX_MESSAGE = 'Something went wrong. Please try again.';

export interface HttpAppOptions {
  logger: Logger;
  /** When given, x-internal-token is verified on every request and the caller set on request.caller. */
  auth?: InternalAuth;
  bodyLimit?: number;
  trustProxy?: boolean;
}

export function createHttpApp(opts: HttpAppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: opts.logger,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    trustProxy: opts.trustProxy ?? false,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
  }) as unknown as FastifyInstance;

  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  app.decorateRequest('caller', null);
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
