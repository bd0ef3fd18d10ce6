/**
 * Admission control: what the gateway lets through to each service when more arrives than the service can answer.
 * Without it every request queued somewhere (in the service's database pool, on the event loop) and, at twice the
 * load a box can serve, waited seconds for an answer its caller had often given up on. Here each service has a gate
 * (p-queue): at most `concurrency` requests in flight to it, the rest waiting in line in the order they came. A
 * request waits only while it is likely to get through within `queueMs`: its expected wait (the line ahead of it
 * times the service's recent answer time, over the slots) above that, it is refused at once — once the line stands,
 * that is: a line that emptied within the last `queueMs` is a burst, which drains by itself, and what comes meanwhile
 * waits (as CoDel tells a standing queue from a burst; the answer time a burst inflates would refuse it). One let in line on that
 * forecast keeps its place a while past it (a caller who already waited is better served by the slot coming up than
 * by a refusal now), but not past QUEUE_CAP times the budget (a service that stopped answering). Refused means 503 `service_unavailable` with a
 * jittered Retry-After (so that the refused do not all come back in the same second), or, for a polled read the
 * gateway holds a recent copy of (polled.ts), that copy, marked X-Puente-Stale: 1 (the caller's next poll sees the
 * latest).
 * What waits in line comes in three kinds, served in this order:
 * - the login's second step, never refused: a user who got through the password step is not sent back to it;
 * - a user's own call (a write, a read they asked for): what a person waits for. It goes ahead of every poll and is
 *   refused only when the calls ahead of it alone would keep it past the cap, so a burst of writes (a crowd
 *   accepting one request) is answered, not shed;
 * - a poll (a route declared polled): the bulk of the load, asked again by the browser in seconds anyway, so it is
 *   the one refused as soon as its expected wait passes the budget.
 * /api/health and /ws are not proxied, so never pass a gate.
 */
import PQueue from 'p-queue';
import type { FastifyReply } from 'fastify';
import { ServiceNames, type ServiceName, type ServiceSaturation } from '@puente/contracts';

/**
 * In flight to one service at once, by default. A service's answer time is mostly its database's: each service has a
 * pool of 10 connections (platform database.ts; 2 in embedded mode, where one PGlite serialises every query anyway).
 * About three requests per connection keep the pool busy while the others are on the wire or being serialised; more
 * than that would only wait in the pool's own line, where nobody can refuse them early.
 */
export const DEFAULT_ADMISSION_CONCURRENCY = 32;
/** How long a request may wait in a gate, by default (ADMISSION_QUEUE_MS): a quarter of the 1 s an answer may take. */
export const DEFAULT_ADMISSION_QUEUE_MS = 250;
/** The header on an answer served from the gateway's held copy because the service was too busy. */
export const STALE_HEADER = 'x-puente-stale';
/** Retry-After on a refusal, in whole seconds, drawn between these. */
const RETRY_AFTER_SECONDS = { min: 1, max: 3 };
/**
 * The longest a request let in line waits, in budgets: 1 s with the default, within the 2 s nobody should wait and
 * well past a forecast that was merely off.
 */
const QUEUE_CAP = 4;
/** Weight of the latest answer time in the running average the expected wait is estimated from. */
const SMOOTHING = 0.2;

export interface AdmissionLimits {
  /** Requests in flight to one service at once (ADMISSION_CONCURRENCY). */
  concurrency: number;
  /** The longest a request is expected to wait for a slot (ADMISSION_QUEUE_MS); it is refused at once past that. */
  queueMs: number;
  /**
   * The share of time the gateway's event loop may be busy before it serves no new user's polls
   * (ADMISSION_EVENT_LOOP_UTILIZATION; user-admission.ts).
   */
  busyUtilization?: number | undefined;
}

export const defaultAdmissionLimits: AdmissionLimits = { concurrency: DEFAULT_ADMISSION_CONCURRENCY, queueMs: DEFAULT_ADMISSION_QUEUE_MS };

/** Frees the slot a request held; called once its answer went out (or its caller left), more calls do nothing. */
export type Release = () => void;

/** How a request waits in line (above): its priority there, and the budget past which it is refused. */
export type Waiting = 'second-step' | 'call' | 'poll';
const PRIORITY: Record<Waiting, number> = { 'second-step': 2, call: 1, poll: 0 };

export interface Gate {
  /**
   * A slot for one request to the service, once it is its turn; undefined when it would wait longer than its budget
   * (refused at once) or did.
   */
  enter(waiting: Waiting): Promise<Release | undefined>;
}

export interface Admission {
  gate(service: ServiceName): Gate;
  /** Counts a request refused (`refused`) or answered from a held copy (`held`). */
  shed(service: ServiceName, answer: 'refused' | 'held'): void;
  /** Each service's requests in flight and waiting, and what was shed since the gateway started. */
  saturation(): Record<ServiceName, ServiceSaturation>;
}

export function createAdmission(limits: AdmissionLimits = defaultAdmissionLimits): Admission {
  const gates = new Map<ServiceName, { gate: Gate; queue: PQueue; shed: { refused: number; held: number } }>();
  for (const service of ServiceNames) {
    const queue = new PQueue({ concurrency: limits.concurrency });
    gates.set(service, { gate: createGate(queue, limits), queue, shed: { refused: 0, held: 0 } });
  }
  const of = (service: ServiceName) => gates.get(service)!;
  return {
    gate: (service) => of(service).gate,
    shed: (service, answer) => { of(service).shed[answer] += 1; },
    saturation: () => Object.fromEntries(ServiceNames.map((service) => {
      const { queue, shed } = of(service);
      return [service, { inFlight: queue.pending, queued: queue.size, limit: limits.concurrency, shed: { ...shed } }];
    })) as Record<ServiceName, ServiceSaturation>,
  };
}

function createGate(queue: PQueue, limits: AdmissionLimits): Gate {
  /** The service's recent answer time (from slot to release), a running average; 0 until one is known. */
  let answerMs = 0;
  /** When the line was last empty: one that has not been for `queueMs` is standing (more comes than is answered). */
  let emptyAt = performance.now();
  queue.addEventListener('empty', () => { emptyAt = performance.now(); });
  /** What a request waits, expected: the line ahead of it (what goes before it: its own kind and those above) over the slots. */
  const expectedWaitMs = (waiting: Waiting) => {
    const ahead = waiting === 'poll' ? queue.size : queue.sizeBy({ priority: PRIORITY.call }) + queue.sizeBy({ priority: PRIORITY['second-step'] });
    return ((ahead + 1) * answerMs) / limits.concurrency;
  };
  const budgetMs = (waiting: Waiting) => (waiting === 'poll' ? limits.queueMs : QUEUE_CAP * limits.queueMs);

  return {
    enter(waiting) {
      const now = performance.now();
      if (queue.size === 0) emptyAt = now;
      const free = queue.size === 0 && queue.pending < limits.concurrency;
      const standing = now - emptyAt > limits.queueMs;
      const mustAdmit = waiting === 'second-step';
      if (!free && !mustAdmit && standing && expectedWaitMs(waiting) > budgetMs(waiting)) return Promise.resolve(undefined);
      return new Promise<Release | undefined>((admitted) => {
        // Given up past the cap; a timer of our own (not the queue's `timeout`, which would free the slot
        // of a request still being answered), cleared when its turn comes.
        const gaveUp = new AbortController();
        const deadline = mustAdmit ? undefined : setTimeout(() => gaveUp.abort(), QUEUE_CAP * limits.queueMs);
        queue.add(() => new Promise<void>((done) => {
          clearTimeout(deadline);
          const started = performance.now();
          let released = false;
          admitted(() => {
            if (released) return;
            released = true;
            answerMs = answerMs === 0 ? performance.now() - started : answerMs + SMOOTHING * (performance.now() - started - answerMs);
            done();
          });
        }), { signal: gaveUp.signal, priority: PRIORITY[waiting] }).catch(() => admitted(undefined));
      });
    },
  };
}

/** Frees `release` once the answer went out or its caller left, whichever comes first. */
export function releaseWhenDone(reply: FastifyReply, release: Release): void {
  if (reply.raw.writableFinished || reply.raw.destroyed) return release();
  reply.raw.once('close', release);
}

/** What a refused caller is told: a write that it was not saved, so that its user knows to send it again. */
export const BUSY_MESSAGE = {
  read: 'Puente is very busy right now. Please try again in a few seconds.',
  write: 'Puente is very busy right now, and this was not saved. Please try again in a few seconds.',
} as const;

/** Whole seconds drawn between `min` and `max`, so that the refused do not all come back in the same second. */
export function retryAfterSeconds(range: { min: number; max: number }): number {
  return range.min + Math.floor(Math.random() * (range.max - range.min + 1));
}

/** 503 with a jittered Retry-After, its body to send. */
export function refusal(reply: FastifyReply, write: boolean): { message: string; code: 'service_unavailable' } {
  reply.status(503).header('retry-after', String(retryAfterSeconds(RETRY_AFTER_SECONDS)));
  return { message: BUSY_MESSAGE[write ? 'write' : 'read'], code: 'service_unavailable' };
}
