/**
 * The moves of a verification request, each checking its rule and returning the events it caused. A request is made
 * pending (an ID request awaiting its document, pending once it is in) and an admin decides it once: approved (the
 * user's flag for its type is set and identity.user.verified announced) or rejected. Callers lock the request and
 * write the events with ServiceContext.change.
 */
import { ID_DOCUMENT_NOT_AWAITED, type EventEnvelope } from '@puente/contracts';
import { AppError, conflict, makeEvent } from '@puente/platform';
import type { User } from './user.ts';
import { VerificationFlag, type VerificationRequest } from './verification-request.ts';

type Decision = 'approved' | 'rejected';

/** The ID request's document is in: the request goes to the admins' review. Nothing is announced. */
export function documentReceived(request: VerificationRequest): EventEnvelope[] {
  if (request.type !== 'id' || request.status !== 'awaiting_document') {
    throw new AppError(409, ID_DOCUMENT_NOT_AWAITED.code, ID_DOCUMENT_NOT_AWAITED.message);
  }
  request.status = 'pending';
  return [];
}

function decide(request: VerificationRequest, decision: Decision, by: number, at: Date): void {
  if (request.status === 'awaiting_document') throw conflict('This verification request is still waiting for its document.');
  if (request.status !== 'pending') throw conflict(`This verification request has already been ${request.status}.`);
  request.status = decision;
  request.decidedAt = at;
  request.decidedById = by;
}

/** An admin (`by`) approves a pending request: its user (if still there) is verified for its type. */
export function approveVerification(request: VerificationRequest, user: User | null, by: number, at: Date): EventEnvelope[] {
  decide(request, 'approved', by, at);
  if (!user) return [];
  user[VerificationFlag[request.type]] = true;
  return [makeEvent('userVerified', user.id, { userId: user.id, kind: request.type })];
}

/** An admin (`by`) rejects a pending request: nothing changes for its user, and nothing is announced. */
export function rejectVerification(request: VerificationRequest, by: number, at: Date): EventEnvelope[] {
  decide(request, 'rejected', by, at);
  return [];
}
