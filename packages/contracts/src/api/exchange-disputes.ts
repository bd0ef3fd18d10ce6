/**
 * Disputes: either party of a confirmed match opens one with a reason and a written statement; the match
 * freezes (no completion, no 'I have paid') while admins look at the match, the chat with its proofs and both
 * parties' history, and resolve it: the match completed or cancelled, and perhaps a warning or a trading suspension
 * for one party. Both parties are told at each step. Served by the exchange service.
 * Calls: /api/exchange-matches/{id}/dispute, /api/admin/disputes*, /api/admin/trading-suspensions/{userId},
 * /api/users/{id}/dispute-outcomes.
 */
import { z } from 'zod';
import { Count, Id, IsoDateTime, PaginationQuery, SnapshotQuery, TrustRating, idParam, requiredText, ValidationMessages as M } from './common.ts';
import { DisputeOutcome, DisputeReason, DisputeStatus, ExchangeMatch, ExchangeMatchIdParams } from './exchange.ts';
import { UserIdParams } from './identity.ts';
import type { RouteSpec } from './route.ts';

export const DISPUTE_STATEMENT_MAX = 4000;
export const DISPUTE_NOTE_MAX = 2000;

/** The field messages of the dispute forms (the web app translates them by key). */
export const DisputeMessages = {
  statementRequired: 'Describe what happened',
  statementTooLong: `The statement must be at most ${DISPUTE_STATEMENT_MAX} characters`,
  noteRequired: 'A note on the decision is required',
  noteTooLong: `The note must be at most ${DISPUTE_NOTE_MAX} characters`,
} as const;
const D = DisputeMessages;

/** The `code` of each refusal, so the web app can word it in the user's language. */
export const DisputeRefusal = {
  /** 409: complete, cancel, 'I have paid' or approve while a dispute is open. */
  frozen: 'match_disputed',
  /** 409: a second dispute on one match. */
  alreadyOpen: 'dispute_exists',
  /** 409: resolving a dispute already resolved. */
  resolved: 'dispute_resolved',
  /** 403: a suspended user posts or accepts a request. */
  suspended: 'trading_suspended',
} as const;

/** POST /api/exchange-matches/{id}/dispute: why, and what happened (proofs of payment go in the chat). */
export const DisputeCreate = z.object({
  reason: DisputeReason,
  statement: requiredText(D.statementRequired, { multiline: true }).max(DISPUTE_STATEMENT_MAX, D.statementTooLong),
});
export type DisputeCreate = z.infer<typeof DisputeCreate>;

/** What an admin may give one party when resolving a dispute. */
export const SanctionKind = z.enum(['warning', 'suspension'], { error: 'Sanction must be a warning or a suspension' });
export type SanctionKind = z.infer<typeof SanctionKind>;

/** A warning or a suspension an admin gave one party when resolving. */
export const DisputeSanction = z.object({ userId: Id, kind: SanctionKind });
export type DisputeSanction = z.infer<typeof DisputeSanction>;

/** A dispute as its parties and admins see it; the resolution fields are null while it is open. */
export const Dispute = z.object({
  id: Id,
  matchId: Id,
  exchangeRequestId: Id,
  openedById: Id,
  reason: DisputeReason,
  statement: z.string(),
  status: DisputeStatus,
  openedAt: IsoDateTime,
  outcome: DisputeOutcome.nullable(),
  adminNote: z.string().nullable(),
  sanction: DisputeSanction.nullable(),
  resolvedAt: IsoDateTime.nullable(),
});
export type Dispute = z.infer<typeof Dispute>;

/** A party as the admins' queue names them (from the exchange service's projection of users). */
export const DisputeParty = z.object({ userId: Id, firstName: z.string(), lastName: z.string() });
export type DisputeParty = z.infer<typeof DisputeParty>;

/** An item of GET /api/admin/disputes: the dispute and who the two parties are. */
export const DisputeQueueItem = Dispute.extend({ requester: DisputeParty, matcher: DisputeParty });
export type DisputeQueueItem = z.infer<typeof DisputeQueueItem>;
export const DisputeQueue = z.array(DisputeQueueItem);
export type DisputeQueue = z.infer<typeof DisputeQueue>;

/** GET /api/admin/disputes: open ones first, then resolved, newest first; `status` for one kind only. */
export const DisputeQueueQuery = PaginationQuery.extend({
  status: z.enum(['open', 'resolved'], { error: 'Status must be open or resolved' }).optional(),
});
export type DisputeQueueQuery = z.infer<typeof DisputeQueueQuery>;

/** An earlier dispute a party was in, as their history shows it. */
export const PastDispute = z.object({
  id: Id, matchId: Id, reason: DisputeReason, status: DisputeStatus, outcome: DisputeOutcome.nullable(),
  openedByThem: z.boolean(), sanctionOnThem: SanctionKind.nullable(), openedAt: IsoDateTime,
});
export type PastDispute = z.infer<typeof PastDispute>;

/** A party with what an admin weighs: their trade record, earlier disputes, warnings and whether they are suspended. */
export const DisputePartyHistory = DisputeParty.extend({
  profileImageUrl: z.string().nullable(),
  memberSince: IsoDateTime.nullable(),
  trustRating: TrustRating,
  ratingCount: Count,
  idVerified: z.boolean(),
  matchesCompleted: Count,
  matchesCancelled: Count,
  matchesExpired: Count,
  /** Their other disputes, newest first. */
  disputes: z.array(PastDispute),
  warnings: Count,
  suspended: z.boolean(),
});
export type DisputePartyHistory = z.infer<typeof DisputePartyHistory>;

/**
 * GET /api/admin/disputes/{id}: everything needed to decide, but the chat (read with GET
 * /api/exchange-matches/{matchId}/messages, which admins may call).
 */
export const DisputeDetail = z.object({
  dispute: Dispute,
  match: ExchangeMatch,
  requester: DisputePartyHistory,
  matcher: DisputePartyHistory,
});
export type DisputeDetail = z.infer<typeof DisputeDetail>;

/** POST /api/admin/disputes/{id}/resolve */
export const DisputeResolve = z.object({
  outcome: DisputeOutcome,
  sanction: DisputeSanction.optional(),
  note: requiredText(D.noteRequired, { multiline: true }).max(DISPUTE_NOTE_MAX, D.noteTooLong),
});
export type DisputeResolve = z.infer<typeof DisputeResolve>;

export const DisputeIdParams = z.object({ id: idParam(M.idInvalid) });
export type DisputeIdParams = z.infer<typeof DisputeIdParams>;

export const SuspendedUserParams = z.object({ userId: idParam(M.userIdInvalid) });
export type SuspendedUserParams = z.infer<typeof SuspendedUserParams>;

/**
 * GET /api/users/{id}/dispute-outcomes (anyone, as a profile shows them): of the resolved disputes the user was a
 * party to, how many ended completed and cancelled, and the warnings and suspensions given to them.
 */
export const DisputeOutcomes = z.object({ completed: Count, cancelled: Count, warnings: Count, suspensions: Count });
export type DisputeOutcomes = z.infer<typeof DisputeOutcomes>;

/**
 * GET /internal/resolved-disputes (identity's snapshot for its directory): resolved disputes by id, as the
 * exchange.dispute.resolved event carries them (the sanction gone once its user deleted their account).
 */
export const ResolvedDisputeSnapshot = z.array(z.object({
  disputeId: Id, requesterId: Id, matcherId: Id, outcome: DisputeOutcome, sanction: DisputeSanction.nullable(),
}));
export type ResolvedDisputeSnapshot = z.infer<typeof ResolvedDisputeSnapshot>;

/** The dispute routes, declared with the exchange service's others (exchange-routes.ts). */
export const DisputeRouteSpecs = {
  openDispute: {
    method: 'POST', path: '/api/exchange-matches/{id}/dispute', access: 'user', params: ExchangeMatchIdParams, body: DisputeCreate, idempotent: true,
    summary: 'A party of a confirmed match opens a dispute: the match freezes until an admin resolves it. The party asked "Did you receive …?" after the other completed the match answers no with one, within the receipt window.',
    responses: { 201: Dispute },
  },
  matchDispute: {
    method: 'GET', path: '/api/exchange-matches/{id}/dispute', access: 'user', params: ExchangeMatchIdParams,
    summary: 'The match\'s dispute, for its two parties and admins (404 when it has none).',
    responses: { 200: Dispute },
  },
  disputeQueue: {
    method: 'GET', path: '/api/admin/disputes', access: 'admin', query: DisputeQueueQuery, paginated: true,
    summary: 'The admins\' dispute queue: open ones first, then resolved, newest first.',
    responses: { 200: DisputeQueue },
  },
  disputeDetail: {
    method: 'GET', path: '/api/admin/disputes/{id}', access: 'admin', params: DisputeIdParams,
    summary: 'A dispute with its match and both parties\' history, for an admin to decide.',
    responses: { 200: DisputeDetail },
  },
  resolveDispute: {
    method: 'POST', path: '/api/admin/disputes/{id}/resolve', access: 'admin', params: DisputeIdParams, body: DisputeResolve,
    summary: 'An admin resolves an open dispute: the match completed or cancelled, perhaps a warning or suspension for a party.',
    responses: { 200: Dispute },
  },
  liftSuspension: {
    method: 'DELETE', path: '/api/admin/trading-suspensions/{userId}', access: 'admin', params: SuspendedUserParams,
    summary: 'An admin lifts a user\'s trading suspension (404 when they are not suspended).',
    responses: { 204: null },
  },
  disputeOutcomes: {
    method: 'GET', path: '/api/users/{id}/dispute-outcomes', access: 'visitor', params: UserIdParams,
    summary: 'How the user\'s resolved disputes ended, and the warnings and suspensions they received (shown on profiles).',
    responses: { 200: DisputeOutcomes },
  },
  resolvedDisputes: {
    method: 'GET', path: '/internal/resolved-disputes', access: 'internal', callers: ['identity'], query: SnapshotQuery,
    summary: 'Resolved disputes by id, a snapshot page at a time, for identity\'s directory (its dispute outcomes).',
    responses: { 200: ResolvedDisputeSnapshot },
  },
} as const satisfies Record<string, RouteSpec>;
