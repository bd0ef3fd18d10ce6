/**
 * Premium's 'priority support' (spec section 9's extras): any signed-in user writes a support request; admins work
 * through one queue of open requests, premium users' first (by their plan now), then oldest first, and mark each
 * answered (with a reply the user reads on their Help page) or closed. Served by the subscription service, which
 * knows the plans. Calls: /api/support-requests (the user's own), /api/admin/support-requests* (admins).
 */
import { z } from 'zod';
import { Id, IsoDateTime, SubscriptionTier, idParam, requiredText, safeText, ValidationMessages as M } from './common.ts';

export const SupportRequestStatus = z.enum(['open', 'answered', 'closed']);
export type SupportRequestStatus = z.infer<typeof SupportRequestStatus>;

export const SUPPORT_SUBJECT_MAX = 120;
export const SUPPORT_MESSAGE_MAX = 5000;
/** Open requests a user may have at once: enough for real problems, not a flood of the queue. */
export const MAX_OPEN_SUPPORT_REQUESTS = 5;

/** The `code` of each refusal (409), so the web app can word it in the user's language. */
export const SupportRefusal = { tooManyOpen: 'support_requests_open', resolved: 'support_request_resolved' } as const;

/** The field messages of the support forms (the web app translates them by key). */
export const SupportMessages = {
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject must be at most ${SUPPORT_SUBJECT_MAX} characters`,
  messageRequired: 'Message is required',
  messageTooLong: `Message must be at most ${SUPPORT_MESSAGE_MAX} characters`,
  replyRequired: 'A reply is required to mark a request answered',
  replyTooLong: `Reply must be at most ${SUPPORT_MESSAGE_MAX} characters`,
  statusInvalid: 'Status must be answered or closed',
} as const;
const S = SupportMessages;

/** POST /api/support-requests */
export const SupportRequestCreate = z.object({
  subject: requiredText(S.subjectRequired).max(SUPPORT_SUBJECT_MAX, S.subjectTooLong),
  message: requiredText(S.messageRequired, { multiline: true }).max(SUPPORT_MESSAGE_MAX, S.messageTooLong),
});
export type SupportRequestCreate = z.infer<typeof SupportRequestCreate>;

/** A support request as its author sees it. */
export const SupportRequest = z.object({
  id: Id,
  subject: z.string(),
  message: z.string(),
  status: SupportRequestStatus,
  /** The admin's answer, when they wrote one. */
  reply: z.string().nullable(),
  createdAt: IsoDateTime,
  resolvedAt: IsoDateTime.nullable(),
});
export type SupportRequest = z.infer<typeof SupportRequest>;

/** GET /api/support-requests: the caller's own, newest first. */
export const SupportRequestList = z.array(SupportRequest);

/** A request in the admins' queue: who asked and their plan now (premium ones come first). */
export const SupportQueueItem = SupportRequest.extend({ userId: Id, tier: SubscriptionTier });
export type SupportQueueItem = z.infer<typeof SupportQueueItem>;

/** GET /api/admin/support-requests: the open requests, premium users' first, then oldest first. */
export const SupportQueue = z.array(SupportQueueItem);

export const SupportRequestIdParams = z.object({ id: idParam(M.idInvalid) });
export type SupportRequestIdParams = z.infer<typeof SupportRequestIdParams>;

/** PUT /api/admin/support-requests/{id}/resolve */
export const SupportResolve = z.object({
  status: z.enum(['answered', 'closed'], { error: S.statusInvalid }),
  reply: safeText({ multiline: true }).max(SUPPORT_MESSAGE_MAX, S.replyTooLong).optional(),
}).refine((b) => b.status !== 'answered' || !!b.reply, { message: S.replyRequired, path: ['reply'] });
export type SupportResolve = z.infer<typeof SupportResolve>;
