/**
 * The one way a service serves a route: against its declaration in @puente/contracts. The declaration gives the
 * method and path, who may call (checked before anything else: 401, 403), the schemas of the path parameters,
 * query and body (validated by fastify-type-provider-zod before the handler runs: 400 with the contract's
 * messages), and the schema of each success answer (the handler's answer is serialised through it, so nothing
 * the contract does not name leaves the service). A polled route is answered 304 from its declared versions while
 * they match the caller's If-None-Match (the app's `versions`), before its handler runs. A multipart route's form is
 * read and checked before its handler too (multipart.ts). An idempotent route sent with an Idempotency-Key answers a
 * repeat from what it kept for the key, without its handler (idempotency.ts). The handler receives typed, validated input.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { pollKeys, servicePath, successStatuses, type ApiRoute, type Input, type SuccessBody } from '@puente/contracts';
import { requireAdmin, requireService, requireUser } from '../auth.ts';
import { answeredNotModified, type VersionStore } from './versions.ts';
import { readForm, type UploadedFile } from './multipart.ts';
import type { IdempotencyKeys } from './idempotency.ts';

export type { UploadedFile } from './multipart.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's versions of polled data (its own namespace), for the polled routes it serves. */
    versions: VersionStore;
  }
}

export type RouteRequest<R extends ApiRoute> = FastifyRequest<{
  Params: Input<R['params']>;
  Querystring: Input<R['query']>;
  Body: Input<R['body']>;
}> & (R extends { multipart: object } ? { upload: UploadedFile } : unknown);

/** What a handler answers: a success body, nothing where the route answers none (204, a redirect), or the reply. */
type Answer<R extends ApiRoute> = (undefined extends SuccessBody<R> ? SuccessBody<R> | void : SuccessBody<R>) | FastifyReply;

/** A handler answers the success body (sent with the route's first success status unless it sets another). */
export type RouteHandler<R extends ApiRoute> = (request: RouteRequest<R>, reply: FastifyReply) => Promise<Answer<R>>;

/** Route options a service may add (e.g. onError, to audit a failed login whatever failed). */
export type ServeOptions = Pick<RouteOptions, 'onError' | 'logLevel'>;

/** Who may call, checked before validation (a visitor gets 401, not a 400 about a body they may not send). */
function guard(route: ApiRoute) {
  switch (route.access) {
    case 'visitor': return undefined;
    case 'user': return async (request: FastifyRequest) => { requireUser(request); };
    case 'admin': return async (request: FastifyRequest) => { requireAdmin(request); };
    case 'internal': {
      // Deny by default: an internal route serves only the callers it names.
      const callers = route.callers ?? [];
      if (callers.length === 0) throw new Error(`${route.method} ${route.path} is internal but names no callers`);
      return async (request: FastifyRequest) => { requireService(request, callers); };
    }
  }
}

export function serve<R extends ApiRoute>(app: FastifyInstance, route: R, handler: RouteHandler<R>, options: ServeOptions = {}): void {
  const response = Object.fromEntries(Object.entries(route.responses).filter(([, schema]) => schema !== null));
  const [status] = successStatuses(route);
  const preValidation = guard(route);
  const { polled } = route;
  if (polled && !app.hasDecorator('versions')) throw new Error(`${route.method} ${route.path} is polled: its app must be decorated with versions`);
  // A multipart body is read by @fastify/multipart (registered by the service where it serves one) and checked here.
  const { multipart } = route;
  if (multipart && !app.hasRequestDecorator('parts')) throw new Error(`${route.method} ${route.path} takes multipart/form-data: register @fastify/multipart first`);
  // Keys are kept per user: only a signed-in user's create can be idempotent.
  if (route.idempotent && (route.access !== 'user' || !app.hasDecorator('idempotencyKeys'))) {
    throw new Error(`${route.method} ${route.path} is idempotent: it must be a user's route, on an app decorated with idempotencyKeys`);
  }
  const idempotency: IdempotencyKeys | undefined = route.idempotent ? app.idempotencyKeys : undefined;
  const routeOptions: RouteOptions = {
    ...options,
    method: route.method,
    url: servicePath(route),
    schema: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body && !multipart ? { body: route.body } : {}),
      response,
    },
    validatorCompiler: validatorCompiler as RouteOptions['validatorCompiler'],
    serializerCompiler: serializerCompiler as RouteOptions['serializerCompiler'],
    ...(preValidation ? { preValidation } : {}),
    ...(idempotency ? { onSend: idempotency.onSend } : {}),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (polled && await answeredNotModified(request, reply, app.versions, pollKeys(polled, requireUser(request)))) return reply;
      if (multipart) Object.assign(request, await readForm(request, multipart, route.body));
      if (status !== undefined && status !== 200) reply.code(status);
      const work = () => handler(request as RouteRequest<R>, reply);
      const answer = idempotency ? await idempotency.serve(route, request, reply, work) : await work();
      // A route that answers no body (204, a redirect) returns nothing: send the empty answer.
      return answer === undefined && !reply.sent ? reply.send() : answer;
    },
  };
  app.route(routeOptions);
}
