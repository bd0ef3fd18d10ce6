/**
 * Cross-site request forgery (api-conventions "Sessions and origins"): a state-changing /api request (POST, PUT,
 * PATCH, DELETE) must say where it comes from — its Origin header, or when absent its Referer — and that origin
 * must be the app's own (the scheme and Host the request was addressed to) or one listed in ALLOWED_ORIGINS.
 * Otherwise 403. Stripe's webhook is exempt: Stripe signs it and sends no Origin. The /ws handshake is checked
 * the same way when it carries an Origin (browsers always send one).
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '@puente/platform';
import { normalizePath } from './routing.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const EXEMPT = new Set(['/api/webhooks/stripe']);

export const crossSiteRefused = () =>
  new AppError(403, 'csrf', 'Cross-site request refused: this request did not come from the Puente app.');

/** `https://Example.com:443/x` → `https://example.com`; undefined for anything that is not an http(s) origin. */
export function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Where the request was addressed: scheme (X-Forwarded-Proto only behind a trusted proxy) and Host. */
export function ownOrigin(request: FastifyRequest): string | undefined {
  return originOf(`${request.protocol}://${request.host}`);
}

export function createOriginCheck(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins.map((o) => {
    const origin = originOf(o);
    if (!origin) throw new Error(`ALLOWED_ORIGINS: "${o}" is not an origin like https://puente.example`);
    return origin;
  }));

  const isTrusted = (request: FastifyRequest, origin: string | undefined) =>
    origin !== undefined && (origin === ownOrigin(request) || allowed.has(origin));

  return {
    /** onRequest: refuses a state-changing /api request from anywhere but the app. */
    async guardApi(request: FastifyRequest): Promise<void> {
      if (!STATE_CHANGING.has(request.method)) return;
      const path = normalizePath(request.url);
      if (!path.startsWith('/api/') || EXEMPT.has(path)) return;
      const header = request.headers.origin ?? request.headers.referer;
      if (!isTrusted(request, originOf(header))) throw crossSiteRefused();
    },
    /** True when a WebSocket handshake may proceed (no Origin: not a browser, the session cookie still decides). */
    allowsHandshake(request: FastifyRequest): boolean {
      const origin = request.headers.origin;
      return origin === undefined || isTrusted(request, originOf(origin));
    },
  };
}
