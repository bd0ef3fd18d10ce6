/**
 * The gateway: the only public entry. Serves the web app, proxies /api/* to the owning service, reports the
 * health of all seven services at /api/health. Headers that only services may set (x-internal-token) are
 * stripped from every incoming request; the request id travels on to the services' logs.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import helmet from '@fastify/helmet';
import { ServiceNames, type ServiceName } from '@puente/contracts';
import { createHttpApp, INTERNAL_TOKEN_HEADER, REQUEST_ID_HEADER, type Logger } from '@puente/platform';
import { routingTable } from './routing.ts';

export interface GatewayOptions {
  logger: Logger;
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** Folder of the built web app (web/dist); the gateway serves it with an SPA fallback when present. */
  webRoot?: string;
  trustProxy?: boolean;
}

export const defaultWebRoot = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function buildGateway(opts: GatewayOptions): Promise<FastifyInstance> {
  const app = createHttpApp({ logger: opts.logger, trustProxy: opts.trustProxy ?? false });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https://api.stripe.com'],
        scriptSrc: ["'self'", 'https://js.stripe.com'],
        frameSrc: ["'self'", 'https://js.stripe.com'],
        imgSrc: ["'self'", 'data:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
      },
    },
  });

  // Nobody outside may speak for a service.
  app.addHook('onRequest', async (request) => {
    delete request.headers[INTERNAL_TOKEN_HEADER];
  });

  app.get('/api/health', async (_request, reply) => {
    const entries = await Promise.all(ServiceNames.map(async (name) => [name, await probe(opts.serviceUrls[name])] as const));
    const services = Object.fromEntries(entries) as Record<ServiceName, 'ok' | 'down'>;
    const status = entries.every(([, s]) => s === 'ok') ? 'ok' : 'degraded';
    return reply.status(status === 'ok' ? 200 : 503).send({ status, services });
  });

  for (const { prefix, service } of routingTable) {
    const upstream = opts.serviceUrls[service];
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
      httpMethods: ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'],
      replyOptions: {
        rewriteRequestHeaders: (request, headers) => ({ ...headers, [REQUEST_ID_HEADER]: request.id }),
      },
    });
  }

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

function unavailable(service: ServiceName) {
  return async (_request: unknown, reply: FastifyReply) =>
    reply.status(503).send({ message: `The ${service} service is not available right now. Please try again later.`, code: 'service_unavailable' });
}

async function probe(url: string | undefined): Promise<'ok' | 'down'> {
  if (!url) return 'down';
  try {
    const res = await fetch(new URL('/ready', url), { signal: AbortSignal.timeout(2_000) });
    return res.ok ? 'ok' : 'down';
  } catch {
    return 'down';
  }
}
