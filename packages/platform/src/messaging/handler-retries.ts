/**
 * What both buses do with an event whose handler throws (bus.ts): retry it with exponential backoff, and park it on
 * the group's dead-letter topic after maxAttempts failures so the partition moves on. A failure that says something
 * the handler needs is unreachable (outages.ts) is no attempt: it is retried, at most OUTAGE_RETRY_MAX_MS apart,
 * until it passes, so an outage never parks good events.
 *
 * The adapters supply what differs: how the handler is called (span, abandoning it on stop), how to wait (the Kafka
 * consumer heartbeats meanwhile), when the consumer has stopped, and where a dead letter goes.
 * (Not a cockatiel retry policy: its waits can neither heartbeat nor end on stop, and it keeps one attempt count where
 * this needs two, the event's failures and all tries.)
 */
import type { EventEnvelope } from '@puente/contracts';
import type { Logger } from 'pino';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_RETRY_DELAY_MS, retryDelay, type Subscription } from './bus.ts';
import { isOutage } from './outages.ts';

/** The longest wait between two tries of an event whose handler meets an outage: how soon it goes on once it ends. */
export const OUTAGE_RETRY_MAX_MS = 2_000;

export interface HandlerRetries {
  sub: Subscription;
  topic: string;
  event: EventEnvelope;
  /** One call of the handler: 'done' once it resolved, 'aborted' if the consumer stopped while it ran (abandoned). */
  run: () => Promise<'done' | 'aborted'>;
  /** Waits before the next try (ending early if the consumer stops). */
  wait: (ms: number) => Promise<void>;
  /** False once the consumer has stopped (or lost the partition): asked before every try. */
  still: () => boolean;
  /** Parks the event after its last attempt; true once it is parked, false if the consumer stopped first. */
  deadLetter: (attempts: number, error: string) => Promise<boolean>;
  /** Carries the group. */
  log: Logger | undefined;
}

/** Handles one event; true once it is done with (handled or dead-lettered), false if the consumer stopped first. */
export async function handleWithRetries(r: HandlerRetries): Promise<boolean> {
  const { event, log } = r;
  const maxAttempts = Math.max(1, r.sub.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const baseDelayMs = r.sub.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const where = { topic: r.topic, eventId: event.id, type: event.type };
  // attempt counts the failures of the event itself; tries counts every failure, outages included.
  for (let attempt = 1, tries = 1; ; tries++) {
    if (!r.still()) return false;
    try {
      return (await r.run()) === 'done';
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (isOutage(err)) {
        log?.warn({ ...where, tries, err: message }, 'event handler cannot reach what it needs; retrying until it can');
        await r.wait(Math.min(retryDelay(baseDelayMs, tries), OUTAGE_RETRY_MAX_MS));
        continue;
      }
      if (attempt >= maxAttempts) {
        log?.error({ ...where, attempts: attempt, err: message }, 'event dead-lettered');
        return r.deadLetter(attempt, message);
      }
      log?.warn({ ...where, attempt, err: message }, 'event handler failed; retrying');
      await r.wait(retryDelay(baseDelayMs, attempt));
      attempt++;
    }
  }
}
