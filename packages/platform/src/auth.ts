/**
 * Internal authentication. The gateway turns a browser session into a short-lived signed internal token
 * (header `x-internal-token`) naming the caller; services verify it and never see the session cookie.
 * Services calling each other sign a token naming themselves. Tokens are HS256 with INTERNAL_TOKEN_SECRET.
 */
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { FastifyRequest } from 'fastify';
import type { Role } from '@puente/contracts';
import { forbidden, unauthorized } from './errors.ts';

export type { Role };

export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
const ISSUER = 'puente-internal';
/** How long an internal token is valid. */
export const INTERNAL_TOKEN_TTL_SECONDS = 60;

export type Caller =
  | { kind: 'user'; userId: number; role: Role; sessionId?: string }
  | { kind: 'service'; service: string };

/**
 * What identity asks the gateway to do with sessions, in a signed response header (SESSION_ACTION_HEADER) that
 * the gateway acts on and strips: start a session after a login/verification/Google callback, end every session
 * of a user (password reset), or every one but the current (password change). Services never see cookies.
 */
export const SESSION_ACTION_HEADER = 'x-session-action';
export type SessionAction =
  | { action: 'grant'; userId: number; role: Role }
  | { action: 'revoke-all'; userId: number }
  | { action: 'revoke-others'; userId: number; keepSessionId: string };

export interface InternalAuth {
  sign(caller: Caller): Promise<string>;
  verify(token: string): Promise<Caller>;
  signSessionAction(action: SessionAction): Promise<string>;
  verifySessionAction(token: string): Promise<SessionAction>;
}

const SESSION_ACTION_AUDIENCE = 'puente-gateway-session';

/** The caller a verified token names. */
function callerOf(payload: JWTPayload): Caller {
  const sub = payload.sub ?? '';
  if (sub.startsWith('user:')) {
    const userId = Number(sub.slice(5));
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error('bad subject');
    const role = payload.role === 'admin' ? 'admin' : 'user';
    return { kind: 'user', userId, role, ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}) };
  }
  if (sub.startsWith('service:')) return { kind: 'service', service: sub.slice(8) };
  throw new Error('bad subject');
}

export function internalAuth(secret: string): InternalAuth {
  if (secret.length < 32) throw new Error('INTERNAL_TOKEN_SECRET must be at least 32 characters');
  const key = new TextEncoder().encode(secret);
  // The gateway reuses a caller's token for half its life: the same bytes verify the same way until they expire.
  const verified = new LRUCache<string, Caller>({ max: 100_000, ttl: INTERNAL_TOKEN_TTL_SECONDS * 1000 });
  return {
    async sign(caller) {
      const claims = caller.kind === 'user'
        ? { role: caller.role, sid: caller.sessionId }
        : {};
      const sub = caller.kind === 'user' ? `user:${caller.userId}` : `service:${caller.service}`;
      return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setSubject(sub)
        .setIssuedAt().setExpirationTime(`${INTERNAL_TOKEN_TTL_SECONDS}s`).sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) return known;
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
      const caller = callerOf(payload);
      // Kept only until the token itself expires.
      verified.set(token, caller, { ttl: Math.max(1, (payload.exp ?? 0) * 1000 - Date.now()) });
      return caller;
    },
    async signSessionAction(action) {
      return new SignJWT({ ...action }).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setAudience(SESSION_ACTION_AUDIENCE)
        .setIssuedAt().setExpirationTime(`${INTERNAL_TOKEN_TTL_SECONDS}s`).sign(key);
    },
    async verifySessionAction(token) {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: SESSION_ACTION_AUDIENCE, algorithms: ['HS256'] });
      const userId = Number(payload.userId);
      if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error('bad session action');
      if (payload.action === 'grant') return { action: 'grant', userId, role: payload.role === 'admin' ? 'admin' : 'user' };
      if (payload.action === 'revoke-all') return { action: 'revoke-all', userId };
      if (payload.action === 'revoke-others' && typeof payload.keepSessionId === 'string') return { action: 'revoke-others', userId, keepSessionId: payload.keepSessionId };
      throw new Error('bad session action');
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
