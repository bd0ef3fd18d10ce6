/**
 * Security headers, by helmet's policy, computed once at start (helmet's output is the same for every request
 * without nonces; @fastify/helmet rebuilt its middleware on every request, a twentieth of the gateway's time on a
 * poll). Two sets:
 * - the web app's documents (and the API docs): a CSP fit for the app and Stripe.js, no framing anywhere;
 * - the API's JSON answers: what OWASP's REST cheat sheet asks of an API — nothing may load or frame it, no
 *   sniffing, no referrer, same-origin reads only — without the document-only headers.
 * Strict-Transport-Security only on HTTPS (as the browser saw it: behind a proxy with TRUST_PROXY).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const document: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      connectSrc: ["'self'", 'ws:', 'wss:', 'https://api.stripe.com'],
      scriptSrc: ["'self'", 'https://js.stripe.com'],
      frameSrc: ["'self'", 'https://js.stripe.com'],
      imgSrc: ["'self'", 'data:', 'https:'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      frameAncestors: ["'none'"],
    },
  },
  xFrameOptions: { action: 'deny' },
};

const api: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  crossOriginOpenerPolicy: false,
  crossOriginEmbedderPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** The headers helmet sets with these options, collected once. */
function headersOf(options: HelmetOptions, secure: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => { headers[name.toLowerCase()] = String(value); },
    removeHeader: (name: string) => { delete headers[name.toLowerCase()]; },
  };
  const forRequest: HelmetOptions = secure ? options : { ...options, strictTransportSecurity: false } as HelmetOptions;
  helmet(forRequest)(
    {} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

const sets = {
  document: { http: headersOf(document, false), https: headersOf(document, true) },
  api: { http: headersOf(api, false), https: headersOf(api, true) },
};

/** The API's headers, for an answer written before Fastify runs (user-admission.ts). */
export function apiSecurityHeaders(secure: boolean): Readonly<Record<string, string>> {
  return secure ? sets.api.https : sets.api.http;
}

export function securityHeaders(opts: { isDocument: (url: string) => boolean }) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const set = request.url.startsWith('/api/') && !opts.isDocument(request.url) ? sets.api : sets.document;
    reply.headers(request.protocol === 'https' ? set.https : set.http);
  };
}
