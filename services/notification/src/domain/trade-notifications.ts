/**
 * Who is told what when an exchange moves on: one entry per addressed user, from one exchange or rating event.
 * Pure (no database): the consumers store them (domain/notify.ts), given the names they know of the parties
 * (domain/user-names.ts). `referenceId` is always the exchange request, so the web app can open it
 * (/dashboard?requestId=...). A trade's money is told as the reader's side: what they pay and what they receive.
 */
import {
  type EventPayload, formatNotification, type NotificationParams, type NotificationType, type NotificationValues, readerAmounts,
} from '@puente/contracts';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  /** Its English sentence (the contracts' notification catalogue). */
  content: string;
  /** The values `content` names, for a client or an email to word it in the reader's language. */
  params: NotificationParams;
  referenceId: number | null;
}

/** The names known of the users an event is about (by user id); a user not in it is told of in general words. */
export type Names = ReadonlyMap<number, string>;
const noNames: Names = new Map();

type Parties = { matchId: number; requestId: number; requesterId: number; matcherId: number };
type Match = EventPayload<'matchCreated'>;
const roleOf = (m: Parties, userId: number) => (userId === m.requesterId ? 'requester' : 'matcher');
const otherOf = (m: Parties, userId: number) => (userId === m.requesterId ? m.matcherId : m.requesterId);
const nameOf = (names: Names, userId: number) => {
  const name = names.get(userId);
  return name === undefined ? {} : { partnerName: name };
};
/**
 * The trade's money for `userId`: the terms (for an app that words them as before) and the reader's side, what
 * they pay and receive (contracts' readerAmounts: exact, rounded to each currency).
 */
const moneyFor = (m: Match, userId: number) => ({
  requestId: m.requestId, amount: m.amount, fromCurrency: m.fromCurrency, toCurrency: m.toCurrency,
  ...readerAmounts(m, roleOf(m, userId)),
});

/** `userId`'s notification of `type`, worded from its values: requestId is its referenceId, the rest its params. */
export function notification<T extends NotificationType>(userId: number, type: T, values: NotificationValues<T>): NewNotification {
  const { requestId, ...params } = values as NotificationValues<T> & { requestId?: number };
  return { userId, type, content: formatNotification('en', type, values), params, referenceId: requestId ?? null };
}

/**
 * Someone accepted the requester's request: the requester approves or declines, knowing who it is (the matcher's id,
 * so the app can show their record beside the sentence).
 */
export function matchCreated(m: EventPayload<'matchCreated'>, names: Names = noNames): NewNotification[] {
  return [notification(m.requesterId, 'exchange_match', { ...moneyFor(m, m.requesterId), ...nameOf(names, m.matcherId), partnerId: m.matcherId })];
}

/** The requester approved: the matcher may now see the bank details (the requester approved it, so knows). */
export function matchConfirmed(m: EventPayload<'matchConfirmed'>): NewNotification[] {
  return [notification(m.matcherId, 'exchange_confirmed', moneyFor(m, m.matcherId))];
}

/** One party marked it completed: the other is told (both, for an event that does not say who). */
export function matchCompleted(m: EventPayload<'matchCompleted'>): NewNotification[] {
  return [m.requesterId, m.matcherId]
    .filter((userId) => userId !== m.completedById)
    .map((userId) => notification(userId, 'exchange_completed', moneyFor(m, userId)));
}

/**
 * The completer completed before the other party said they received their money: the asked party is asked whether
 * they received what they receive of the terms from the completer (also emailed at once: events/consumers.ts).
 */
export function receiptAsked(m: EventPayload<'matchReceiptAsked'>, names: Names = noNames): NewNotification[] {
  const { receiveAmount, receiveCurrency } = readerAmounts(m, roleOf(m, m.askedId));
  return [notification(m.askedId, 'receipt_question', { requestId: m.requestId, receiveAmount, receiveCurrency, ...nameOf(names, m.completedById) })];
}

/**
 * A party said they received their money: the other party is told who, and that it was what they paid. The window
 * passed without an answer (automatic): both are told it counts as received.
 */
export function receiptConfirmed(m: EventPayload<'matchReceiptConfirmed'>, names: Names = noNames): NewNotification[] {
  if (!m.automatic) {
    const reader = otherOf(m, m.receivedById);
    const { payAmount, payCurrency } = readerAmounts(m, roleOf(m, reader));
    return [notification(reader, 'receipt_confirmed', { requestId: m.requestId, payAmount, payCurrency, ...nameOf(names, m.receivedById) })];
  }
  return [m.requesterId, m.matcherId].map((reader) => notification(reader, 'receipt_lapsed', {
    requestId: m.requestId, ...readerAmounts(m, roleOf(m, reader)), receivedByYou: reader === m.receivedById, ...nameOf(names, otherOf(m, reader)),
  }));
}

/** A pending match called off: the party who did not call it off is told why. */
export function matchCancelled(m: EventPayload<'matchCancelled'>): NewNotification[] {
  const { requestId } = m;
  switch (m.reason) {
    case 'withdrawn':
      return [notification(m.requesterId, 'match_cancelled', { requestId, cancelReason: 'withdrawn' })];
    case 'declined':
      return [notification(m.matcherId, 'match_declined', { requestId })];
    case 'request-cancelled':
      return [notification(m.matcherId, 'match_cancelled', { requestId, cancelReason: 'request-cancelled' })];
    case 'dispute-cancelled':
      return []; // the dispute's resolution tells both parties (disputeResolved)
  }
}

/** The requester did not approve in time: both parties are told; the request is open again. */
export function matchExpired(m: Parties): NewNotification[] {
  return [
    notification(m.requesterId, 'match_expired', { requestId: m.requestId, role: 'requester' }),
    notification(m.matcherId, 'match_expired', { requestId: m.requestId, role: 'matcher' }),
  ];
}

/** A confirmed match not yet completed: both parties are reminded. */
export function completionReminded(m: EventPayload<'matchCompletionReminded'>): NewNotification[] {
  return [m.requesterId, m.matcherId].map((userId) =>
    notification(userId, 'completion_reminder', { requestId: m.requestId, hoursSinceConfirmed: m.hoursSinceConfirmed }));
}

/** One party marked their payment sent: the other checks their bank before completing. */
export function paymentMarked(m: EventPayload<'matchPaymentMarked'>): NewNotification[] {
  const other = m.paidById === m.requesterId ? m.matcherId : m.requesterId;
  return [notification(other, 'payment_sent', { requestId: m.requestId })];
}

/** A party disputed a confirmed match: both are told it is on hold until an admin decides. */
export function disputeOpened(d: EventPayload<'disputeOpened'>): NewNotification[] {
  return [d.requesterId, d.matcherId].map((userId) =>
    notification(userId, 'dispute_opened', { requestId: d.requestId, disputeReason: d.reason, openedByYou: userId === d.openedById }));
}

/** An admin resolved a dispute: both parties learn the outcome, and a sanctioned party what they received. */
export function disputeResolved(d: EventPayload<'disputeResolved'>): NewNotification[] {
  return [d.requesterId, d.matcherId].map((userId) => notification(userId, 'dispute_resolved', {
    requestId: d.requestId, outcome: d.outcome, ...(d.sanction?.userId === userId ? { sanction: d.sanction.kind } : {}),
  }));
}

/** An open request nobody took in time. */
export function requestExpired(r: EventPayload<'requestExpired'>): NewNotification[] {
  return [notification(r.userId, 'request_expired', { requestId: r.requestId })];
}

/** The rated user learns the rating (not who gave it: the ratings list shows that). */
export function ratingSubmitted(r: EventPayload<'ratingSubmitted'>): NewNotification[] {
  return [notification(r.toUserId, 'rating', { stars: r.rating, ...(r.requestId === undefined ? {} : { requestId: r.requestId }) })];
}

/** A premium renewal could not be charged: the user stays premium while the payment provider retries. */
export function paymentFailed(p: EventPayload<'subscriptionPaymentFailed'>): NewNotification[] {
  return [notification(p.userId, 'payment_failed', {})];
}
