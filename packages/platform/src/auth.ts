/**
 * Internal authentication. The gateway turns a browser session into a short-lived signed internal token
 * (header `x-internal-token`) naming the caller; services verify it and never see the session cookie.
 * Services calling each other sign a token naming themselves. Tokens are HS256 with INTERNAL_TOKEN_SECRET.
 */
import { SignJWT, jwtVerify } from 'jose';
import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from './errors.ts';

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
const ISSUER = 'puente-internal';
const TTL_SECONDS = 60;

export type Role = 'user' | 'admin';
export type Caller =
  | { kind: 'user'; userId: number; role: Role; sessionId?: string }
  | { kind: 'service'; service: string };

export interface InternalAuth {
  sign(caller: Caller): Promise<string>;
  verify(token: string): Promise<Caller>;
}

export function internalAuth(secret: string): InternalAuth {
  if (secret.length < 32) throw new Error('INTERNAL_TOKEN_SECRET must be at least 32 characters');
  const key = new TextEncoder().encode(secret);
  return {
    async sign(caller) {
      const claims = caller.kind === 'user'
        ? { role: caller.role, sid: caller.sessionId }
        : {};
      const sub = caller.kind === 'user' ? `user:${caller.userId}` : `service:${caller.service}`;
      return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setSubject(sub)
        .setIssuedAt().setExpirationTime(`${TTL_SECONDS}s`).sign(key);
    },
    async verify(token) {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
      const sub = payload.sub ?? '';
      if (sub.startsWith('user:')) {
        const userId = Number(sub.slice(5));
        if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error('bad subject');
        const role = payload.role === 'admin' ? 'admin' : 'user';
        return { kind: 'user', userId, role, ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}) };
      }
      if (sub.startsWith('service:')) return { kind: 'service', service: sub.slice(8) };
      throw new Error('bad subject');
    },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller, or null when the request carried no valid internal token. */
    caller: Caller | null;
  }
}

/** The signed-in user making the request, or 401. */
export function requireUser(request: FastifyRequest): Extract<Caller, { kind: 'user' }> {
  const c = request.caller;
  if (!c || c.kind !== 'user') throw unauthorized();
  return c;
}

/** A signed-in admin, or 401/403. */
export function requireAdmin(request: FastifyRequest): Extract<Caller, { kind: 'user' }> {
  const user = requireUser(request);
  if (user.role !== 'admin') throw forbidden('Admins only');
  return user;
}

/** Another Puente service (internal routes), or 403. */
export function requireService(request: FastifyRequest, ...allowed: string[]): Extract<Caller, { kind: 'service' }> {
  const c = request.caller;
  if (!c || c.kind !== 'service' || (allowed.length > 0 && !allowed.includes(c.service))) throw forbidden('Internal route');
  return c;
}
