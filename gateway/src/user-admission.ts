/**
 * Admission for the gateway's own process, by user. The gates in admission.ts guard the services, but most polls are
 * answered by the gateway itself (304s, kept answers), so when the gateway's CPU is what runs out every answer slows
 * together. Refusing requests then does not help: a 503 costs this thread about what a 304 does (parsing, the socket
 * write), the refused poll again in seconds, and every user, the ones served a moment ago too, meets refusals. So the
 * refusal goes to users instead, newest first, the way a proxy's connection limit does, but by the session cookie
 * rather than the connection (a browser opens several, and opens them again after idling):
 * - The share of time the event loop is busy (its utilization) and how late it runs (the median lateness of a 10 ms
 *   timer: about what a poll arriving now waits before it is read; the median, so that one long query of the embedded
 *   database does not count as a loop behind) are read every SAMPLE_MS. Busy past `busyUtilization` for CLOSE_AFTER
 *   samples in a row (3 s: a burst drains by itself), or late past CLOSE_LATE_MS for CLOSE_LATE in a row (1 s: more
 *   arrive than the loop can take), the users served now are all that will be: a poll from anyone else gets 503 with
 *   a Retry-After of 5 to 15 s, written by Node's HTTP server before Fastify, the session check or the router run. A
 *   user is known by their session cookie's value, unverified (it only places them in line; the session is checked
 *   as ever once served), and leaves the served when they have not polled for IDLE_MS.
 * - Still busy or late with that door shut for STEP samples in a row, the newest of the users served are refused
 *   too (the last arrived are the last to have been kept waiting on): a tenth, or more the later the loop runs (it
 *   keeps LATE_MS over the lateness of them, at least KEEP_LEAST), since utilization stops at 1 however far over
 *   capacity the load is.
 * - Calm again (under CALM of the bound, and on time), the limit grows by a tenth each sample, then opens; idle (under
 *   IDLE of the bound), it opens at once: what shut it has passed, and newcomers filling each tenth as it opens would
 *   otherwise keep it shut for many seconds on a process with room (a crowd arriving after a burst).
 * Only polls (the routes declared polled, all GETs without parameters) with a session cookie are refused here: they
 * are the bulk of the load, and asked again anyway. A user's own call goes on to its service's gate (admission.ts),
 * as do /api/health, the web app's files and /ws (an upgrade, not a request).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { ApiRoutes, type UserAdmissionState } from '@puente/contracts';
import { REQUEST_ID_HEADER, type Metrics } from '@puente/platform';
import { BUSY_MESSAGE, retryAfterSeconds } from './admission.ts';
import { apiSecurityHeaders } from './security-headers.ts';
import { SESSION_COOKIE } from './sessions/sessions.ts';

const SAMPLE_MS = 500;
/**
 * Samples in a row busy before the door shuts: 3 s. A burst keeps the loop busy for a second or two (a thousand users
 * arriving, a batch of writes on the embedded database) and drains by itself; a load past what the process can serve
 * does not.
 */
const CLOSE_AFTER = 6;
/**
 * A loop this late (ms) is past serving the polls it has in time: a poll already waits about that long before it is
 * read. A crowd of arrivals the process can take (the cold-arrivals target's thousand in 3 s) stays well under it.
 */
const CLOSE_LATE_MS = 250;
const CLOSE_LATE = 2;
/**
 * Samples in a row busy (or late) with the door shut before it shrinks again: the users refused by a step stop
 * costing only once their polls in flight are answered, within a cadence.
 */
const STEP = 4;
/** Later than this (ms) with the door shut, the users served are more than the loop serves in time: the limit shrinks. */
const LATE_MS = 50;
/** The least and the most of the users served one step keeps. */
const KEEP_LEAST = 0.6;
const KEEP_MOST = 0.9;
/** Below this share of the bound the process has room: the limit grows. */
const CALM = 0.8;
/** Below this share of the bound the process has plenty: the door opens. */
const IDLE = 0.5;
/** The lateness timer's period (ms): it records the time between its firings, so its lateness is that less the period. */
const RESOLUTION_MS = 10;
const RETRY_AFTER = { min: 5, max: 15 };
/** A served user who has not polled for this long has left (the app polls every 3 s). */
const IDLE_MS = 30_000;
const COOKIE_PREFIX = `${SESSION_COOKIE}=`;
/**
 * At most this many users served while the door is open. The served are known by an unverified cookie, so a client
 * making up cookies could otherwise grow the map until the idle sweep; past the cap a newcomer is simply not recorded
 * (and so not kept once the door shuts), which is what a newcomer is anyway.
 */
const MAX_SERVED = 100_000;
const REFUSAL = JSON.stringify({ message: BUSY_MESSAGE.read, code: 'service_unavailable' });
const POLLS = new Set(ApiRoutes.filter((route) => route.polled).map((route) => {
  if (route.method !== 'GET' || route.path.includes('{')) throw new Error(`${route.path}: a polled route is a GET without parameters here`);
  return route.path;
}));

/** The value of the request's session cookie, if any: who is asking, for a place in line only. */
function sessionKey(req: IncomingMessage): string | undefined {
  const cookies = req.headers.cookie;
  const at = cookies?.indexOf(COOKIE_PREFIX) ?? -1;
  if (at < 0 || (at > 0 && cookies![at - 1] !== ' ' && cookies![at - 1] !== ';')) return undefined;
  const end = cookies!.indexOf(';', at);
  return cookies!.slice(at + COOKIE_PREFIX.length, end < 0 ? undefined : end);
}

export interface UserAdmission {
  /** Reads the event loop's utilization since the last sample and moves the limit (called every SAMPLE_MS). */
  sample(): void;
  /** Users served now, how many may be (null: any number), and the polls refused since the start (for /api/health). */
  state(): NonNullable<UserAdmissionState>;
  stop(): void;
}

export function admitUsers(server: Server, opts: {
  busyUtilization: number;
  metrics?: Pick<Metrics, 'countShed'> | undefined;
  /** The event loop's utilization and its lateness (ms) since the last call, and how often they are read (tests give their own). */
  utilization?: () => number;
  lateness?: () => number;
  sampleMs?: number;
  /** How long a served user may go without polling before they have left (IDLE_MS; tests give their own). */
  idleMs?: number;
}): UserAdmission {
  const idleMs = opts.idleMs ?? IDLE_MS;
  /**
   * The users served, by session cookie, oldest first (a Map keeps insertion order), with when they last polled, to
   * the sample (a clock read twice a second rather than on every poll).
   */
  const served = new Map<string, number>();
  let now = performance.now();
  let sweptAt = now;
  let limit = Number.POSITIVE_INFINITY;
  let busySamples = 0;
  let lateSamples = 0;
  let refused = 0;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const utilization = opts.utilization ?? (() => {
    const now = performance.eventLoopUtilization();
    const { utilization: share } = performance.eventLoopUtilization(now, last);
    last = now;
    return share;
  });
  const delay = opts.lateness ? undefined : monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay?.enable();
  const lateness = opts.lateness ?? (() => {
    const ms = delay!.count > 0 ? Math.max(0, delay!.percentile(50) / 1e6 - RESOLUTION_MS) : 0;
    delay!.reset();
    return ms;
  });

  // Fastify's handler is the server's one 'request' listener; admission goes in front of it.
  const [handler] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (!handler) throw new Error('admitUsers needs the HTTP server of a Fastify app');
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = req.method === 'GET' ? req.url!.split('?', 1)[0]! : '';
    if (!POLLS.has(path)) return handler(req, res);
    const user = sessionKey(req);
    if (user === undefined) return handler(req, res);
    if (served.has(user)) {
      served.set(user, now);
      return handler(req, res);
    }
    if (served.size < limit) {
      if (served.size < MAX_SERVED) served.set(user, now);
      return handler(req, res);
    }
    refused += 1;
    opts.metrics?.countShed('gateway', path, 'refused');
    res.writeHead(503, {
      ...apiSecurityHeaders((req.socket as TLSSocket).encrypted === true),
      [REQUEST_ID_HEADER]: req.headers[REQUEST_ID_HEADER] ?? randomUUID(),
      'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(REFUSAL),
      'retry-after': String(retryAfterSeconds(RETRY_AFTER)), 'cache-control': 'no-store',
    });
    res.end(REFUSAL);
  });

  const admission: UserAdmission = {
    sample() {
      now = performance.now();
      if (now - sweptAt >= idleMs) {
        sweptAt = now;
        for (const [user, seen] of served) if (now - seen > idleMs) served.delete(user);
      }
      const share = utilization();
      const late = lateness();
      if (!Number.isFinite(limit)) {
        busySamples = share >= opts.busyUtilization ? busySamples + 1 : 0;
        lateSamples = late >= CLOSE_LATE_MS ? lateSamples + 1 : 0;
        if (busySamples < CLOSE_AFTER && lateSamples < CLOSE_LATE) return;
        limit = served.size;
        busySamples = lateSamples = 0;
        return;
      }
      if (share >= opts.busyUtilization || late > LATE_MS) {
        if (++busySamples < STEP) return;
        busySamples = 0;
        limit = Math.floor(Math.min(limit, served.size) * Math.min(KEEP_MOST, Math.max(KEEP_LEAST, LATE_MS / late)));
        // The newest beyond the limit are no longer served: a Map iterates oldest first.
        let kept = 0;
        for (const user of served.keys()) if (++kept > limit) served.delete(user);
        return;
      }
      busySamples = 0;
      if (share < IDLE * opts.busyUtilization) limit = Number.POSITIVE_INFINITY;
      else if (share < CALM * opts.busyUtilization) {
        limit = Math.ceil(limit * 1.1) + 1;
        if (limit > 2 * served.size) limit = Number.POSITIVE_INFINITY;
      }
    },
    state: () => ({ served: served.size, limit: Number.isFinite(limit) ? limit : null, refused }),
    stop: () => {
      clearInterval(timer);
      delay?.disable();
    },
  };
  const timer = setInterval(() => admission.sample(), opts.sampleMs ?? SAMPLE_MS);
  timer.unref();
  return admission;
}
