/**
 * Browser sessions. The cookie `puente_session` holds an HS256 JWT (SESSION_SECRET) naming a random session id and
 * the user; it is HttpOnly, SameSite=Lax, Path=/, Secure when the request came over HTTPS. The token alone is not
 * enough: its session id must still be in the store (store.ts), so logout and revocation take effect at once.
 * A cookie that fails either check counts as no session and is cleared.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '@puente/platform';
import type { SessionStore } from './store.ts';

export const SESSION_COOKIE = 'puente_session';
const ISSUER = 'puente-gateway';
const AUDIENCE = 'puente-session';

export interface Session {
  id: string;
  userId: number;
  role: Role;
  expiresAt: number;
}

export interface SessionsOptions {
  secret: string;
  store: SessionStore;
  ttlMs: number;
}

export interface Sessions {
  readonly store: SessionStore;
  /** The request's valid session, or null (a cookie naming no live session is cleared). Looked up once per request. */
  current(request: FastifyRequest, reply: FastifyReply): Promise<Session | null>;
  /** Starts a session for the user and sets its cookie; a session the request already had is ended (no fixation). */
  grant(request: FastifyRequest, reply: FastifyReply, userId: number, role: Role): Promise<Session>;
  /** Ends the request's session, if any, and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<Session | null>;
  /** Ends every session of the user but `keep`; clears the cookie when the request's own session was one of them. */
  revokeUser(request: FastifyRequest, reply: FastifyReply, userId: number, keep?: string): Promise<string[]>;
  /** True while the session is in the store (live sockets re-check this). */
  isLive(sessionId: string): Promise<boolean>;
}

export function createSessions(opts: SessionsOptions): Sessions {
  if (opts.secret.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
  const key = new TextEncoder().encode(opts.secret);
  const { store } = opts;
  const resolved = new WeakMap<FastifyRequest, Promise<Session | null>>();

  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true, sameSite: 'lax' as const, path: '/', secure: request.protocol === 'https',
  });
  const clearCookie = (request: FastifyRequest, reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  };

  async function lookup(request: FastifyRequest, reply: FastifyReply): Promise<Session | null> {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return null;
    try {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (typeof payload.sid === 'string') {
        const record = await store.get(payload.sid);
        if (record && record.userId === userId) return { id: payload.sid, ...record };
      }
    } catch (err) {
      if (!(err instanceof joseErrors.JOSEError)) throw err; // a bad token is no session; a store failure is a fault
    }
    clearCookie(request, reply);
    return null;
  }

  return {
    store,
    current(request, reply) {
      let session = resolved.get(request);
      if (!session) resolved.set(request, session = lookup(request, reply));
      return session;
    },

    async grant(request, reply, userId, role) {
      const previous = await this.current(request, reply);
      if (previous) await store.delete(previous.id);
      const session: Session = { id: randomBytes(32).toString('base64url'), userId, role, expiresAt: Date.now() + opts.ttlMs };
      await store.save(session.id, { userId, role, expiresAt: session.expiresAt });
      const token = await new SignJWT({ sid: session.id }).setProtectedHeader({ alg: 'HS256' })
        .setIssuer(ISSUER).setAudience(AUDIENCE).setSubject(String(userId))
        .setIssuedAt().setExpirationTime(Math.floor(session.expiresAt / 1000)).sign(key);
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), expires: new Date(session.expiresAt) });
      resolved.set(request, Promise.resolve(session));
      return session;
    },

    async end(request, reply) {
      const session = await this.current(request, reply);
      if (session) await store.delete(session.id);
      if (request.cookies[SESSION_COOKIE]) clearCookie(request, reply);
      resolved.set(request, Promise.resolve(null));
      return session;
    },

    async revokeUser(request, reply, userId, keep) {
      const ended = await store.deleteUserSessions(userId, keep);
      const own = await this.current(request, reply);
      if (own && ended.includes(own.id)) {
        clearCookie(request, reply);
        resolved.set(request, Promise.resolve(null));
      }
      return ended;
    },

    async isLive(sessionId) {
      return (await store.get(sessionId)) !== undefined;
    },
  };
}
