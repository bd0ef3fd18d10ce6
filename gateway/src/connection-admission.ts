/**
 * Admission for the gateway's own process, by connection. The gates in admission.ts guard the services, but most polls
 * are answered by the gateway itself (304s, kept answers), so when the gateway's CPU is what runs out every answer
 * slows together. Refusing requests then does not help: a 503 costs this thread about what a 304 does (parsing, the
 * socket write), the refused poll again in seconds, and every user, the ones served a moment ago too, meets refusals.
 * So the refusal goes to connections instead, newest first, the way a proxy's connection limit does:
 * - The share of time the event loop is busy (its utilization) is read every SAMPLE_MS. Past `busyUtilization` for
 *   CLOSE_AFTER samples in a row (a burst drains by itself), the connections served now are all that will be: a poll
 *   on any other connection gets 503 with a Retry-After of 5 to 15 s, written by Node's HTTP server before Fastify,
 *   the session or the router see it. It keeps its connection, so that its next try costs no handshake.
 * - Still busy with that door shut for SHRINK_AFTER samples in a row, the newest tenth of the connections served is
 *   refused too (the last arrived are the last to have been kept waiting on).
 * - Calm again (under CALM of the bound), the limit grows by a twentieth each sample, then opens.
 * Only polls (the routes declared polled, all GETs without parameters) are refused here: they are the bulk of the
 * load, and asked again anyway. A user's own call goes on to its service's gate (admission.ts), as do /api/health,
 * the web app's files and /ws (an upgrade, not a request).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Socket } from 'node:net';
import { ApiRoutes } from '@puente/contracts';
import type { Metrics } from '@puente/platform';
import { BUSY_MESSAGE, retryAfterSeconds } from './admission.ts';

const SAMPLE_MS = 500;
/** Samples in a row busy before the door shuts. */
const CLOSE_AFTER = 2;
/** Samples in a row busy with the door shut before the newest connections served are refused too. */
const SHRINK_AFTER = 4;
/** Below this share of the bound the process has room: the limit grows. */
const CALM = 0.8;
const RETRY_AFTER = { min: 5, max: 15 };
const POLLS = new Set(ApiRoutes.filter((route) => route.polled).map((route) => {
  if (route.method !== 'GET' || route.path.includes('{')) throw new Error(`${route.path}: a polled route is a GET without parameters here`);
  return route.path;
}));

export interface ConnectionAdmission {
  /** Reads the event loop's utilization since the last sample and moves the limit (called every SAMPLE_MS). */
  sample(): void;
  /** Connections served now, and how many may be (Infinity: no limit). */
  state(): { served: number; limit: number };
  stop(): void;
}

export function admitConnections(server: Server, opts: {
  busyUtilization: number;
  metrics?: Pick<Metrics, 'countShed'> | undefined;
  /** The event loop's utilization since the last call, and how often it is read (tests give their own). */
  utilization?: () => number;
  sampleMs?: number;
}): ConnectionAdmission {
  /** The connections served, oldest first (a Set keeps insertion order). */
  const served = new Set<Socket>();
  /** Those whose close is already watched (a connection refused for a while and served again keeps its watch). */
  const watched = new WeakSet<Socket>();
  let limit = Number.POSITIVE_INFINITY;
  let busySamples = 0;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const utilization = opts.utilization ?? (() => {
    const now = performance.eventLoopUtilization();
    const { utilization: share } = performance.eventLoopUtilization(now, last);
    last = now;
    return share;
  });

  // Fastify's handler is the server's one 'request' listener; admission goes in front of it.
  const [handler] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (!handler) throw new Error('admitConnections needs the HTTP server of a Fastify app');
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    if (served.has(socket) || req.method !== 'GET' || !POLLS.has(req.url!.split('?', 1)[0]!)) return handler(req, res);
    if (served.size < limit) {
      served.add(socket);
      if (!watched.has(socket)) {
        watched.add(socket);
        socket.once('close', () => served.delete(socket));
      }
      return handler(req, res);
    }
    opts.metrics?.countShed('gateway', 'connection', 'refused');
    const body = JSON.stringify({ message: BUSY_MESSAGE.read, code: 'service_unavailable' });
    res.writeHead(503, {
      'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body),
      'retry-after': String(retryAfterSeconds(RETRY_AFTER)), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
    });
    res.end(body);
  });

  const admission: ConnectionAdmission = {
    sample() {
      const share = utilization();
      if (share >= opts.busyUtilization) {
        busySamples += 1;
        if (limit > served.size) {
          if (busySamples < CLOSE_AFTER) return;
          limit = served.size;
          busySamples = 0;
        } else if (busySamples >= SHRINK_AFTER) {
          limit = Math.floor(limit * 0.9);
          busySamples = 0;
          // The newest beyond the limit are no longer served: a Set iterates oldest first.
          let kept = 0;
          for (const socket of served) if (++kept > limit) served.delete(socket);
        }
      } else {
        busySamples = 0;
        if (share < CALM * opts.busyUtilization && Number.isFinite(limit)) {
          limit = Math.ceil(limit * 1.05) + 1;
          if (limit > 2 * served.size) limit = Number.POSITIVE_INFINITY;
        }
      }
    },
    state: () => ({ served: served.size, limit }),
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => admission.sample(), opts.sampleMs ?? SAMPLE_MS);
  timer.unref();
  return admission;
}
