/**
 * The signed-in devices: the caller's sessions (GET /api/auth/sessions) and ending one of them (DELETE
 * /api/auth/sessions/{id}), answered by the gateway, which keeps the sessions. What the list shows of each session —
 * when it started, when it was last used, from which browser and network — is recorded as the session is used, at
 * most once a minute per session on each gateway, so that polling does not write to the store on every request.
 */
import { createHash } from 'node:crypto';
import Bowser from 'bowser';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  Routes, SessionIdParams, SessionMessages, approximateNetwork, routerPath, type SignedInSession,
} from '@puente/contracts';
import { fieldInvalid, notFound, unauthorized } from '@puente/platform';
import type { Session, Sessions } from './sessions.ts';
import type { SessionListing, UserSession } from './store.ts';

/** How often a session's use is written (the list's "last seen" is that coarse). */
export const USE_RECORD_INTERVAL_MS = 60_000;
/** Longest user agent kept, and longest browser or OS name shown (a client may send anything). */
const USER_AGENT_MAX = 512;
const FAMILY_MAX = 60;
/** Sessions whose last write this gateway remembers (a plain map emptied when full: a miss costs one write). */
const RECORDED_MAX = 200_000;

export interface SessionRoutesDeps {
  sessions: Sessions;
  /** The store itself (not the cached one in front of it): listing and recording uses are not lookups. */
  listing: SessionListing;
  /** Every session's lifetime: when a session's use was never recorded, it started this long before it expires. */
  ttlMs: number;
  /** Told of a session ended here (the live hub closes its sockets). */
  onSessionsEnded: (sessionIds: string[]) => void;
}

/** A session's id in the list: a digest of it, so the list never hands out a session's secret. */
export const publicSessionId = (sessionId: string): string =>
  createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);

/** The browser and OS families a user agent names (null where it names none), as the list and emails show them. */
export function browserOf(userAgent: string | null): { browser: string | null; os: string | null } {
  if (!userAgent?.trim()) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  const family = (name: string | undefined) => (name ? name.slice(0, FAMILY_MAX) : null);
  return { browser: family(parsed.browser.name), os: family(parsed.os.name) };
}

/** Registered on the gateway itself, before the service proxies, so that its hook sees every /api answer. */
export function registerSessionRoutes(app: FastifyInstance, deps: SessionRoutesDeps): void {
  const recorded = new Map<string, number>();

  function recordUse(session: Session, request: FastifyRequest): void {
    const now = Date.now();
    const last = recorded.get(session.id);
    if (last !== undefined && now - last < USE_RECORD_INTERVAL_MS) return;
    if (recorded.size >= RECORDED_MAX) recorded.clear();
    recorded.set(session.id, now);
    const userAgent = request.headers['user-agent']?.slice(0, USER_AGENT_MAX) ?? null;
    deps.listing.recordUse(session.id, session, { at: now, userAgent, ip: request.ip })
      .catch((err: unknown) => request.log.warn({ err }, "could not record a session's use"));
  }

  // Recorded as the answer goes out, not awaited: a store that is slow or unreachable (an outage the cached store
  // rides out) must not hold answers back. The write is issued before the browser can ask again, so a list read
  // after a login's answer finds the new session's use (the stores apply commands in the order they are issued). A
  // lookup that failed is the request's own error, reported there.
  app.addHook('onSend', (request, _reply, payload, done) => {
    void request.sessionLookup?.then((session) => { if (session) recordUse(session, request); }, () => {});
    done(null, payload);
  });

  const signedIn = async (request: FastifyRequest, reply: FastifyReply): Promise<Session> => {
    const session = await deps.sessions.current(request, reply);
    if (!session) throw unauthorized();
    return session;
  };

  app.get(Routes.gateway.sessions.path, async (request, reply) => {
    const session = await signedIn(request, reply);
    const listed = (await deps.listing.userSessions(session.userId)).map((s) => view(s, session.id, deps.ttlMs));
    return listed.sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
  });

  // Only the caller's own sessions are looked at: another user's id is as unknown as a made-up one (404).
  app.delete(routerPath(Routes.gateway.revokeSession), async (request, reply) => {
    const session = await signedIn(request, reply);
    const params = SessionIdParams.safeParse(request.params);
    if (!params.success) throw fieldInvalid('id', params.error.issues[0]?.message ?? 'Invalid session ID');
    const target = (await deps.listing.userSessions(session.userId)).find((s) => publicSessionId(s.id) === params.data.id);
    if (!target) throw notFound(SessionMessages.notFound);
    // Deleted through the cached store: this gateway forgets it at once, the others when the store announces it.
    if (target.id === session.id) await deps.sessions.end(request, reply);
    else await deps.sessions.store.delete(target.id);
    deps.onSessionsEnded([target.id]);
    return reply.status(204).send();
  });
}

function view(session: UserSession, currentId: string, ttlMs: number): SignedInSession {
  const createdAt = session.use?.createdAt ?? session.record.expiresAt - ttlMs;
  return {
    id: publicSessionId(session.id),
    createdAt: new Date(createdAt).toISOString(),
    lastSeenAt: new Date(session.use?.lastSeenAt ?? createdAt).toISOString(),
    ...browserOf(session.use?.userAgent ?? null),
    network: approximateNetwork(session.use?.ip),
    current: session.id === currentId,
  };
}
