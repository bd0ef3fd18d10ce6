/**
 * Domain events: one envelope, one catalogue. An event type is `<service>.<aggregate>.<past-tense verb>`,
 * its version a literal; it travels on its producer's topic (`puente.<producer>`), keyed by aggregate id so one
 * aggregate's events stay in order. Payloads never carry secrets or bank details.
 */
import { z } from 'zod';
import { Count, Currency, DecimalString, Id } from './api/common.ts';
import { Role, VerificationType } from './api/identity.ts';
import { LoginAttemptStatus, LoginMethod, SignupAttemptStatus, SignupStep } from './api/audit.ts';
import { AdminReadWhat } from './api/audit-admin-reads.ts';
import { NotificationParams, NotificationType } from './api/notification.ts';
import { ChatMessage } from './api/exchange-chat.ts';
import { DisputeOutcome, DisputeReason } from './api/exchange.ts';
import { DisputeSanction } from './api/exchange-disputes.ts';
import { ServiceName } from './service-names.ts';

/** The topic a producer publishes on. */
export const topicOf = (producer: ServiceName): string => `puente.${producer}`;

export const EventEnvelope = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime(),
  producer: ServiceName,
  aggregateId: z.string().min(1),
  payload: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelope>;

export interface EventContract<T extends string = string, V extends number = number, P extends z.ZodType = z.ZodType> {
  type: T;
  version: V;
  producer: ServiceName;
  payload: P;
}

function event<const T extends string, const V extends number, P extends z.ZodType>(
  producer: ServiceName, type: T, version: V, payload: P,
): EventContract<T, V, P> {
  return { type, version, producer, payload };
}

/** What the admin view shows of every sign-up and login attempt (spec section 3), success or failure. */
const AttemptFields = {
  email: z.string(),
  failureReason: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /**
   * True when a field the client sent had to be altered to be stored: control characters or unpaired surrogates
   * escaped as `\uXXXX` text, or text cut to length. Optional so that version 1 events without it stay valid.
   */
  inputAltered: z.boolean().optional(),
  /**
   * The account the attempt signed in to or created, when it did (the audit service finds a user's attempts by it
   * for their data download and their deletion). Optional so that version 1 events without it stay valid.
   */
  userId: Id.optional(),
};
const MatchParties = { matchId: Id, requestId: Id, requesterId: Id, matcherId: Id };
/** What was agreed: the request's terms, money as decimal strings (the rate CLP per GBP). Never bank details. */
const MatchTerms = { fromCurrency: Currency, toCurrency: Currency, amount: DecimalString, exchangeRate: DecimalString };
/**
 * Why a match ended without a trade: the matcher withdrew, the requester declined or cancelled the request (all three
 * while pending), or an admin resolving a dispute of the confirmed match cancelled it (the request does not reopen).
 */
export const MatchCancelReason = z.enum(['withdrawn', 'declined', 'request-cancelled', 'dispute-cancelled']);

export const Events = {
  // identity
  userRegistered: event('identity', 'identity.user.registered', 1, z.object({
    userId: Id, firstName: z.string(), lastName: z.string(), role: Role, referrerId: Id.nullable(),
  })),
  userProfileUpdated: event('identity', 'identity.user.profile-updated', 1, z.object({
    userId: Id, firstName: z.string(), lastName: z.string(), profileImageUrl: z.string().nullable(),
  })),
  userVerified: event('identity', 'identity.user.verified', 1, z.object({
    userId: Id, kind: VerificationType,
  })),
  /**
   * The user deleted their account: identity has anonymised them, and every service erases or anonymises what it
   * holds of them. Only the id: the event outlives the data it announces the end of.
   */
  userDeleted: event('identity', 'identity.user.deleted', 1, z.object({ userId: Id })),
  /**
   * Sessions of the user ended with a change of their credentials (a password changed or reset, the account deleted):
   * every gateway instance refuses them at once, from its memory too, whether or not its session store can be
   * reached. Never a session id: the sessions started before `endedAt` end, except the caller's own when the change
   * keeps it, named by `keptSessionHash` (its id's SHA-256, base64url).
   */
  userSessionsEnded: event('identity', 'identity.user.sessions-ended', 1, z.object({
    userId: Id, endedAt: z.iso.datetime(), keptSessionHash: z.string().min(1).optional(),
  })),
  /** step: 'request' (the form) or 'verify' (the emailed token); status pending until verified. */
  signupAttempted: event('identity', 'identity.signup.attempted', 1, z.object({
    ...AttemptFields, step: SignupStep, status: SignupAttemptStatus,
    referralCode: z.string().nullable(),
  })),
  loginAttempted: event('identity', 'identity.login.attempted', 1, z.object({
    ...AttemptFields, method: LoginMethod, status: LoginAttemptStatus,
  })),
  // accounts
  bankAccountAdded: event('accounts', 'accounts.bank-account.added', 1, z.object({ accountId: Id, userId: Id, currency: Currency })),
  bankAccountUpdated: event('accounts', 'accounts.bank-account.updated', 1, z.object({ accountId: Id, userId: Id, currency: Currency })),
  bankAccountRemoved: event('accounts', 'accounts.bank-account.removed', 1, z.object({ accountId: Id, userId: Id, currency: Currency })),
  // exchange
  requestCreated: event('exchange', 'exchange.request.created', 1, z.object({
    requestId: Id, userId: Id, fromCurrency: Currency, toCurrency: Currency, amount: DecimalString, exchangeRate: DecimalString,
  })),
  /** The owner marked an open request done: it leaves the market, and nobody traded it. */
  requestCompleted: event('exchange', 'exchange.request.completed', 1, z.object({ requestId: Id, userId: Id })),
  requestCancelled: event('exchange', 'exchange.request.cancelled', 1, z.object({ requestId: Id, userId: Id })),
  /** An open request nobody took within REQUEST_EXPIRY_DAYS. */
  requestExpired: event('exchange', 'exchange.request.expired', 1, z.object({ requestId: Id, userId: Id })),
  /**
   * The owner asked to tell the users who could take an open request (version 2 adds the terms, for the text).
   * excludedUserIds: the users the owner blocked or was blocked by, not to be told (absent before blocks existed).
   */
  requestNotificationsSent: event('exchange', 'exchange.request.notifications-sent', 2, z.object({
    requestId: Id, userId: Id, fromCurrency: Currency, toCurrency: Currency, amount: DecimalString, exchangeRate: DecimalString,
    excludedUserIds: z.array(Id).max(10_000).optional(),
  })),
  // Version 2 adds the terms (version 1 was never published: the exchange service had no matches before it).
  matchCreated: event('exchange', 'exchange.match.created', 2, z.object({ ...MatchParties, ...MatchTerms })),
  matchConfirmed: event('exchange', 'exchange.match.confirmed', 2, z.object({ ...MatchParties, ...MatchTerms })),
  /**
   * completedById: the party who marked it completed, absent when an admin resolved its dispute so; confirmedAt: when the match was confirmed (occurredAt is when it
   * was completed). Both absent from events published before they were added.
   */
  matchCompleted: event('exchange', 'exchange.match.completed', 2, z.object({ ...MatchParties, ...MatchTerms, completedById: Id.optional(), confirmedAt: z.iso.datetime().optional() })),
  /**
   * A match called off; the request is open again unless the reason is request-cancelled or dispute-cancelled
   * (cancelledById is then the admin who resolved the dispute).
   */
  matchCancelled: event('exchange', 'exchange.match.cancelled', 1, z.object({
    ...MatchParties, cancelledById: Id, reason: MatchCancelReason,
  })),
  /** A pending match the requester did not approve within MATCH_APPROVAL_HOURS; the request is open again. */
  matchExpired: event('exchange', 'exchange.match.expired', 1, z.object(MatchParties)),
  /** A confirmed match still not completed after one of COMPLETION_REMINDER_HOURS: both parties are reminded. */
  matchCompletionReminded: event('exchange', 'exchange.match.completion-reminded', 1, z.object({
    ...MatchParties, hoursSinceConfirmed: Count,
  })),
  /** A party of a confirmed match marked their payment sent ('I have paid'), once: the other party checks their bank. */
  matchPaymentMarked: event('exchange', 'exchange.match.payment-marked', 1, z.object({ ...MatchParties, paidById: Id })),
  /**
   * A party said they received the money due to them ('I received'), or the receipt window passed without an answer
   * (automatic: it counts as yes). receivedById's amount and currency: what they receive of the terms.
   */
  matchReceiptConfirmed: event('exchange', 'exchange.match.receipt-confirmed', 1, z.object({
    ...MatchParties, ...MatchTerms, receivedById: Id, automatic: z.boolean(),
  })),
  /**
   * A party completed the match before the other said they received their money: the other (askedId) is asked "Did
   * you receive … from <completer>?", to answer by dueAt (RECEIPT_WINDOW_HOURS).
   */
  matchReceiptAsked: event('exchange', 'exchange.match.receipt-asked', 1, z.object({
    ...MatchParties, ...MatchTerms, askedId: Id, completedById: Id, dueAt: z.iso.datetime(),
  })),
  /**
   * A party opened a dispute: the match is frozen until an admin resolves it. afterCompletion: the asked party's no to
   * the receipt question, on a match already completed (the ratings of its parties wait for the resolution); absent
   * from events published before it was added.
   */
  disputeOpened: event('exchange', 'exchange.dispute.opened', 1, z.object({
    ...MatchParties, disputeId: Id, openedById: Id, reason: DisputeReason, afterCompletion: z.boolean().optional(),
  })),
  /**
   * An admin resolved a dispute: the match was completed or cancelled (its own event says so too), and perhaps one
   * party was warned or suspended from trading.
   */
  disputeResolved: event('exchange', 'exchange.dispute.resolved', 1, z.object({
    ...MatchParties, disputeId: Id, outcome: DisputeOutcome, sanction: DisputeSanction.nullable(),
  })),
  /**
   * A message in a match's chat (a party's text or a system message): the gateway delivers it live to the two
   * parties. Carries the parties' ids so nothing has to be looked up; never bank details.
   */
  chatMessagePosted: event('exchange', 'exchange.chat.message-posted', 1, z.object({
    ...MatchParties, message: ChatMessage,
  })),
  /**
   * An admin who is not a party read a match's chat or one of its attachments while no dispute of it was open (a
   * read during an open dispute is the admin's job, and a party's own read is theirs): the audit service keeps it.
   * adminName: the admin's name as the exchange knew it ('' when it did not).
   */
  adminChatRead: event('exchange', 'exchange.chat.admin-read', 1, z.object({
    adminId: Id, adminName: z.string().max(200), matchId: Id, what: AdminReadWhat, attachmentId: Id.optional(), at: z.iso.datetime(),
  })),
  // rating
  /** requestId: the match's exchange request (absent where the rating service had not kept it). */
  ratingSubmitted: event('rating', 'rating.rating.submitted', 1, z.object({
    ratingId: Id, matchId: Id, requestId: Id.optional(), fromUserId: Id, toUserId: Id, rating: z.number().int().min(1).max(5),
    toUserAverage: DecimalString, toUserCount: Count,
  })),
  /**
   * A user's standing changed without a new rating: ratings of a match were held while its completion is disputed, or
   * released when the dispute was resolved. average: null when no rating counts.
   */
  ratingStandingChanged: event('rating', 'rating.standing.changed', 1, z.object({
    userId: Id, average: DecimalString.nullable(), count: Count,
  })),
  // notification
  notificationCreated: event('notification', 'notification.notification.created', 1, z.object({
    notificationId: Id, userId: Id,
    type: NotificationType,
    content: z.string(), referenceId: Id.nullable(),
    /** Absent from events published before notifications had params. */
    params: NotificationParams.nullable().optional(),
  })),
  matchAnnounced: event('notification', 'notification.match.announced', 1, z.object({
    userId: Id, matchId: Id, requestId: Id,
  })),
  // subscription
  subscriptionActivated: event('subscription', 'subscription.subscription.activated', 1, z.object({
    userId: Id, tier: z.literal('premium'), currentPeriodEnd: z.iso.datetime(),
  })),
  subscriptionCancelled: event('subscription', 'subscription.subscription.cancelled', 1, z.object({
    userId: Id, tier: z.literal('free'),
  })),
  /** A premium payment failed (the user stays premium while Stripe retries): the user is told. */
  subscriptionPaymentFailed: event('subscription', 'subscription.payment.failed', 1, z.object({ userId: Id })),
} as const;

export type EventsCatalogue = typeof Events;
export type EventName = keyof EventsCatalogue;
export type EventPayload<N extends EventName> = z.infer<EventsCatalogue[N]['payload']>;
export type EventType = EventsCatalogue[EventName]['type'];

/** Looks up a contract by its wire type and version (consumers use it to validate what they receive). */
export function contractOf(type: string, version: number): EventContract | undefined {
  return Object.values(Events).find((c) => c.type === type && c.version === version);
}
