/**
 * The moves of a support request: a user opens it (within the open limit), an admin answers or closes it, once.
 * Nothing is announced: no other service follows support requests.
 */
import { MAX_OPEN_SUPPORT_REQUESTS, SupportRefusal, type SupportRequestCreate, type SupportResolve } from '@puente/contracts';
import { AppError } from '@puente/platform';
import type { SupportRequest } from './support.ts';

export const TOO_MANY_OPEN = `You have ${MAX_OPEN_SUPPORT_REQUESTS} open support requests: please wait for an answer before writing another.`;
export const ALREADY_RESOLVED = 'This support request has already been answered or closed';

/** A new request's columns, open; refused (409) when its author already has the most open ones allowed. */
export function openSupportRequest(userId: number, content: SupportRequestCreate, openCount: number, at: Date) {
  if (openCount >= MAX_OPEN_SUPPORT_REQUESTS) throw new AppError(409, SupportRefusal.tooManyOpen, TOO_MANY_OPEN);
  return { userId, subject: content.subject, message: content.message, status: 'open', createdAt: at } as const;
}

/** An admin answers or closes an open request (409 once it is not open: two admins at once resolve it once). */
export function resolveSupportRequest(row: SupportRequest, { status, reply }: SupportResolve, adminId: number, at: Date): void {
  if (row.status !== 'open') throw new AppError(409, SupportRefusal.resolved, ALREADY_RESOLVED);
  Object.assign(row, { status, reply: reply ?? null, resolvedAt: at, resolvedById: adminId });
}
