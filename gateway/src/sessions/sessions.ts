/**
 * Browser sessions. The cookie `puente_session` holds a random session id (256 bits) signed by @fastify/cookie with
 * SESSION_SECRET; it is HttpOnly, SameSite=Lax, Path=/, Secure when the request came over HTTPS. Everything else
 * (user, role, whether it was signed in with a second factor, expiry) lives in the store (store.ts), the one place a session is checked, so logout and revocation
 * take effect at once. A cookie whose signature fails, or whose id is not in the store, counts as no session and is
 * cleared. (A JWT would only repeat what the store holds, and cost a verification on every request.)
 * A store that cannot be reached (Redis down) is neither "no session" nor a 500: the request is answered 503
 * `service_unavailable`, saying to try again; sessions read lately keep working meanwhile, and logouts and
 * revocations take effect at once, reaching the store once it answers (cached-store.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sign } from '@fastify/cookie';
import { AppError, type Role } from '@puente/platform';
import type { SessionStore } from './store.ts';

export const SESSION_COOKIE = 'puente_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's session, looked up once (app.ts decorates every request with it, null until looked up). */
    sessionLookup: Promise<Session | null> | null;
  }
}

/** The Cookie header of a browser holding this session (for seeding and tests; the cookie's format lives here). */
export const sessionCookieHeader = (sessionId: string, secret: string): string =>
  `${SESSION_COOKIE}=${encodeURIComponent(sign(sessionId, secret))}`;

const MAX_COOKIES_KEPT = 200_000;

/** What a request that needs the session store hears while the store cannot be reached. */
export const sessionsUnavailable = () =>
  new AppError(503, 'service_unavailable', 'Sessions are not available right now. Please try again in a minute.');

/** The store's answer, or a 503 when it cannot give one (logged: the cause is an outage to look at). */
async function fromStore<T>(request: FastifyRequest, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    request.log.warn({ err }, 'the session store is not reachable');
    throw sessionsUnavailable();
  }
}

export interface Session {
  id: string;
  userId: number;
  role: Role;
  /** Signed in with a second factor (SessionRecord.twoFactor). */
  twoFactor?: boolean;
  expiresAt: number;
}

/** What identity's grant says of the sign-in: the user's role, and whether it used a second factor. */
export interface Grant { role: Role; twoFactor?: boolean | undefined }

export interface SessionsOptions {
  store: SessionStore;
  ttlMs: number;
}

export interface Sessions {
  readonly store: SessionStore;
  /** The request's valid session, or null (a cookie naming no live session is cleared). Looked up once per request. */
  current(request: FastifyRequest, reply: FastifyReply): Promise<Session | null>;
  /** Starts a session for the user and sets its cookie; a session the request already had is ended (no fixation). */
  grant(request: FastifyRequest, reply: FastifyReply, userId: number, grant: Grant): Promise<Session>;
  /** Ends the request's session, if any, and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<Session | null>;
  /** Ends every session of the user but `keep`; clears the cookie when the request's own session was one of them. */
  revokeUser(request: FastifyRequest, reply: FastifyReply, userId: number, keep?: string): Promise<string[]>;
  /** True while the session is in the store (live sockets re-check this). */
  isLive(sessionId: string): Promise<boolean>;
}

export function createSessions(opts: SessionsOptions): Sessions {
  const { store } = opts;
  // A cookie's signature checks the same way every time: its session id (or '' for a bad one), HMAC'd once. A plain
  // map, emptied when full: a miss costs one HMAC, and keeping an LRU's order cost more than that on every call.
  const unsigned = new Map<string, string>();

  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true, sameSite: 'lax' as const, path: '/', secure: request.protocol === 'https',
  });
  const clearCookie = (request: FastifyRequest, reply: FastifyReply) => {
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  };

  async function lookup(request: FastifyRequest, reply: FastifyReply): Promise<Session | null> {
    const cookie = request.cookies[SESSION_COOKIE];
    if (!cookie) return null;
    let id = unsigned.get(cookie);
    if (id === undefined) {
      const result = request.unsignCookie(cookie);
      if (unsigned.size >= MAX_COOKIES_KEPT) unsigned.clear();
      unsigned.set(cookie, id = result.valid && result.value ? result.value : '');
    }
    const record = id ? await fromStore(request, () => store.get(id)) : undefined; // a failure is not "no session"
    if (record) return { id, ...record };
    clearCookie(request, reply);
    return null;
  }

  return {
    store,
    current(request, reply) {
      let session = request.sessionLookup;
      if (!session) request.sessionLookup = session = lookup(request, reply);
      return session;
    },

    async grant(request, reply, userId, { role, twoFactor }) {
      const previous = await this.current(request, reply);
      if (previous) await fromStore(request, () => store.delete(previous.id));
      const now = Date.now();
      const record = { userId, role, ...(twoFactor ? { twoFactor: true } : {}), expiresAt: now + opts.ttlMs, grantedAt: now };
      const session: Session = { id: randomBytes(32).toString('base64url'), ...record };
      await fromStore(request, () => store.save(session.id, record));
      reply.setCookie(SESSION_COOKIE, session.id, { ...cookieOptions(request), signed: true, expires: new Date(session.expiresAt) });
      request.sessionLookup = Promise.resolve(session);
      return session;
    },

    async end(request, reply) {
      const session = await this.current(request, reply);
      if (session) await fromStore(request, () => store.delete(session.id));
      if (request.cookies[SESSION_COOKIE]) clearCookie(request, reply);
      request.sessionLookup = Promise.resolve(null);
      return session;
    },

    async revokeUser(request, reply, userId, keep) {
      const ended = await fromStore(request, () => store.deleteUserSessions(userId, keep));
      const own = await this.current(request, reply);
      // Ended whether or not the store could delete it yet (cached-store.ts waits for the store to take deletions).
      if (own && own.userId === userId && own.id !== keep) {
        clearCookie(request, reply);
        request.sessionLookup = Promise.resolve(null);
      }
      return ended;
    },

    async isLive(sessionId) {
      return (await store.get(sessionId)) !== undefined;
    },
  };
}
