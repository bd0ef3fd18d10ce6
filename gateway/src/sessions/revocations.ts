/**
 * Revocations a gateway honours from its memory, whether or not the session store can be reached: per user, "the
 * sessions started before <time> have ended, except the one whose id hashes to <hash>". A mark is set by the instance
 * that acts on identity's session action (at once, with its own clock) and by every instance hearing identity's
 * userSessionsEnded event (with identity's time of the change). A mark never names a session, so one event or one
 * mark covers sessions this instance never saw; it is kept for a session's lifetime, after which every session it
 * refuses has expired anyway. Marks live in this process only: see cached-store.ts for the window that remains.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Events, topicOf } from '@puente/contracts';
import { readEvent, type EventBus, type Logger, type SubscriptionHandle } from '@puente/platform';
import type { SessionRecord } from './store.ts';

/** The hash by which a revocation names the session it keeps (the event's keptSessionHash). */
export const sessionIdHash = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url');

export interface Revocation {
  userId: number;
  /** Epoch milliseconds: the sessions started before it have ended. */
  before: number;
  /** sessionIdHash of the session that goes on, if any. */
  keptHash?: string | undefined;
}

interface Mark { before: number; keptHash: string | undefined; markedAt: number }

/** Users marked at most (the oldest mark goes first): far more than revocations in a session's lifetime. */
const MAX_MARKS = 100_000;

export class Revocations {
  private readonly marks = new Map<number, Mark>();
  private readonly keepMs: number;
  private readonly now: () => number;

  /** keepMs: a session's lifetime. */
  constructor(keepMs: number, now: () => number = () => Date.now()) {
    this.keepMs = keepMs;
    this.now = now;
  }

  /** Marks the user's sessions started before `before` as ended (a later mark of the user replaces an earlier one). */
  mark({ userId, before, keptHash }: Revocation): void {
    const known = this.marks.get(userId);
    if (known && known.before >= before) return; // heard again (the event after the action), or an older one
    this.marks.delete(userId);
    if (this.marks.size >= MAX_MARKS) this.marks.delete(this.marks.keys().next().value!);
    this.marks.set(userId, { before, keptHash, markedAt: this.now() });
  }

  /** Whether a revocation ended this session (one stored before grantedAt was recorded counts as started at 0). */
  refuses(sessionId: string, record: SessionRecord): boolean {
    const mark = this.marks.get(record.userId);
    if (!mark) return false;
    if (this.now() - mark.markedAt > this.keepMs) {
      this.marks.delete(record.userId);
      return false;
    }
    return (record.grantedAt ?? 0) < mark.before && (mark.keptHash === undefined || mark.keptHash !== sessionIdHash(sessionId));
  }
}

/**
 * Hears identity's userSessionsEnded on this instance (a consumer group of its own, from the latest offset, as the
 * live channel does: every instance hears every event). The event is written in the transaction of the change that
 * ended the sessions, so it is published even when the broker was away at the time; a handler failing (it cannot)
 * would be retried by the bus.
 */
export async function hearRevocations(bus: EventBus, logger: Logger, apply: (revocation: Revocation) => void): Promise<SubscriptionHandle> {
  return bus.subscribe({
    group: `gateway-sessions-${randomUUID()}`,
    topics: [topicOf('identity')],
    types: [Events.userSessionsEnded.type],
    startFrom: 'latest',
    handle: async (event) => {
      const ended = readEvent('userSessionsEnded', event);
      if (!ended) return;
      apply({ userId: ended.userId, before: Date.parse(ended.endedAt), keptHash: ended.keptSessionHash });
      logger.info({ userId: ended.userId }, 'sessions ended by identity: refused here from now on');
    },
  });
}
