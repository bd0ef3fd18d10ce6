/**
 * The announcement that a change of credentials ended the user's sessions (userSessionsEnded), written to the outbox in
 * the change's transaction. The gateway also acts on the signed session action of the answer, but only the instance
 * that carries the answer sees it, and during a Redis outage it cannot delete the sessions from the shared store:
 * this event reaches every gateway instance (and survives a broker outage in the outbox), so each refuses the ended
 * sessions from its memory at once. It carries no session id: the kept one, if any, only as its hash.
 */
import { createHash } from 'node:crypto';
import type { EventEnvelope } from '@puente/contracts';
import { makeEvent } from '@puente/platform';

export function sessionsEnded(userId: number, keptSessionId?: string): EventEnvelope {
  return makeEvent('userSessionsEnded', userId, {
    userId, endedAt: new Date().toISOString(),
    ...(keptSessionId ? { keptSessionHash: createHash('sha256').update(keptSessionId).digest('base64url') } : {}),
  });
}
