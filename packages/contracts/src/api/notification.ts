/**
 * In-app notifications and the live channel's messages.
 * Calls: GET /api/notifications, GET /api/notifications/count, PUT /api/notifications/read-all,
 * PUT /api/notifications/{id}/read; WebSocket /ws.
 */
import { z } from 'zod';
import { Count, Currency, DecimalString, Id, IsoDateTime, Message } from './common.ts';
import { DisputeOutcome, DisputeReason } from './exchange.ts';
import { SanctionKind } from './exchange-disputes.ts';
import { ChatLiveMessage } from './exchange-chat.ts';

/**
 * The spec's five types, then the ones it has no word for: a pending match called off by the matcher or with its
 * request (match_cancelled), turned down by the requester (match_declined), or not approved in time
 * (match_expired); a confirmed match still not marked completed (completion_reminder); an open request nobody took
 * in time (request_expired); a premium renewal that could not be charged (payment_failed); the other party of a
 * confirmed match marked their payment sent (payment_sent); a dispute of one of the user's matches opened
 * (dispute_opened) or resolved (dispute_resolved); the other party completed a match before the reader said they
 * received their money, and asks whether they did (receipt_question); the other party said they received theirs
 * (receipt_confirmed); nobody answered the question in time, so it counts as received (receipt_lapsed, to both). A
 * client shows a type it does not know by its content alone.
 */
export const NotificationType = z.enum([
  'exchange_request',
  'exchange_match',
  'exchange_confirmed',
  'exchange_completed',
  'rating',
  'match_cancelled',
  'match_declined',
  'match_expired',
  'completion_reminder',
  'request_expired',
  'payment_failed',
  'payment_sent',
  'dispute_opened',
  'dispute_resolved',
  'receipt_question',
  'receipt_confirmed',
  'receipt_lapsed',
]);
export type NotificationType = z.infer<typeof NotificationType>;

/**
 * What a client needs to word a notification itself, in its reader's language (`content` is the spec's English
 * sentence): only the values the sentence of its type names, the request being referenceId; which those are, and
 * the sentences, is the notification catalogue's (`NotificationValues`, notification-messages.ts). The terms (amount,
 * fromCurrency, toCurrency; exchangeRate too for exchange_request); hoursSinceConfirmed; stars; cancelReason; role:
 * the reader's side of the match; disputeReason and openedByYou: whether the reader opened it; outcome, and sanction
 * when the reader received one. None for match_declined, payment_sent, request_expired and payment_failed ({}).
 * The reader's side of a trade's money: payAmount in payCurrency (what the reader pays), receiveAmount in
 * receiveCurrency (what they receive), decimal strings to the currency's unit; absent from notifications stored
 * before them, which word the terms as amount for toCurrency. partnerName: the other party's name, as the service
 * knew it (absent while it did not). partnerId: the other party's user id, for exchange_match (the matcher, whose
 * record the bell shows; absent from notifications stored before it). receivedByYou: whether the reader is the one whose receipt the lapse counted.
 */
export const NotificationParams = z.strictObject({
  amount: DecimalString.optional(),
  fromCurrency: Currency.optional(),
  toCurrency: Currency.optional(),
  exchangeRate: DecimalString.optional(),
  hoursSinceConfirmed: Count.optional(),
  stars: z.number().int().min(1).max(5).optional(),
  cancelReason: z.enum(['withdrawn', 'request-cancelled']).optional(),
  role: z.enum(['requester', 'matcher']).optional(),
  disputeReason: DisputeReason.optional(),
  openedByYou: z.boolean().optional(),
  outcome: DisputeOutcome.optional(),
  sanction: SanctionKind.optional(),
  payAmount: DecimalString.optional(),
  payCurrency: Currency.optional(),
  receiveAmount: DecimalString.optional(),
  receiveCurrency: Currency.optional(),
  partnerName: z.string().max(201).optional(),
  partnerId: Id.optional(),
  receivedByYou: z.boolean().optional(),
});
export type NotificationParams = z.infer<typeof NotificationParams>;

/**
 * A notification: the items of GET /api/notifications and the answer to PUT .../{id}/read (200). referenceId is the
 * exchange request it is about, whatever the type (the web app opens /dashboard?requestId=...), or null for what is
 * about no request (a failed payment). params: null for one stored before notifications had them (shown by content).
 */
export const Notification = z.object({
  id: Id,
  type: NotificationType,
  content: z.string(),
  params: NotificationParams.nullable(),
  read: z.boolean(),
  referenceId: Id.nullable(),
  createdAt: IsoDateTime,
});
export type Notification = z.infer<typeof Notification>;

export const NotificationList = z.array(Notification);
export type NotificationList = z.infer<typeof NotificationList>;

/** GET /api/notifications/count: the number of unread notifications. */
export const NotificationCount = z.object({ count: Count });
export type NotificationCount = z.infer<typeof NotificationCount>;

/** How many notifications the app's bell lists: the page it polls (`?limit=`), whose first polls the gateway batches. */
export const NOTIFICATIONS_SHOWN = 20;

/** The most users one batch of first polls names. */
export const MAX_FIRST_POLLS = 500;

/** POST /internal/notifications/first-polls: the users whose first polls came together, and the page their list shows. */
export const FirstPollsRequest = z.object({
  userIds: z.array(Id).min(1).max(MAX_FIRST_POLLS),
  limit: z.int().min(1).max(100),
});
export type FirstPollsRequest = z.infer<typeof FirstPollsRequest>;

/** For each user asked: what their list (the first `limit`, and how many in all) and their count would answer. */
export const FirstPolls = z.array(z.object({ userId: Id, notifications: NotificationList, total: Count, unread: Count }));
export type FirstPolls = z.infer<typeof FirstPolls>;

/**
 * GET /api/notifications/preferences (200) and the body and answer (200) of PUT on the same path. emailDigest: an
 * email of what is still unread some minutes after it came (on unless turned off).
 */
export const NotificationPreferences = z.object({ emailDigest: z.boolean('emailDigest must be true or false') });
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** PUT /api/notifications/read-all, 200 */
export const MarkAllReadResponse = Message;
export type MarkAllReadResponse = z.infer<typeof MarkAllReadResponse>;

/**
 * Live message: a match was confirmed and bank details are available to both parties. It is a signal: the web app
 * refreshes its matches (spec section 7) and reads the details over HTTP; bank details never travel on the bus.
 */
export const MatchSuccessMessage = z.object({
  type: z.literal('match_success'),
  data: z.object({ matchId: Id, requestId: Id }),
});
export type MatchSuccessMessage = z.infer<typeof MatchSuccessMessage>;

/** Live message: a notification was added (the web shows its content). */
export const NewNotificationMessage = z.object({ type: z.literal('new_notification'), notification: Notification });
export type NewNotificationMessage = z.infer<typeof NewNotificationMessage>;

/**
 * Live message: the answers of these polled routes (their declared paths: the market, the user's requests, matches,
 * notifications and count) changed for the signed-in user. Sent as each change is committed, it names what changed,
 * not the data: the app reads those routes again at once instead of at its next poll.
 */
export const VersionsMessage = z.object({ type: z.literal('versions'), routes: z.array(z.string()).min(1) });
export type VersionsMessage = z.infer<typeof VersionsMessage>;

/** Every JSON message the server sends on /ws. */
export const LiveMessage = z.discriminatedUnion('type', [MatchSuccessMessage, NewNotificationMessage, ChatLiveMessage, VersionsMessage]);
export type LiveMessage = z.infer<typeof LiveMessage>;

/** The close code of a /ws socket whose session ended (logout, revocation): the app does not reconnect it. */
export const LIVE_SESSION_ENDED_CLOSE_CODE = 4401;

/** The notification service's section of a user's data download (GET /internal/personal-data/notifications). */
export const NotificationPersonalData = z.object({ notifications: NotificationList, preferences: NotificationPreferences });
export type NotificationPersonalData = z.infer<typeof NotificationPersonalData>;
