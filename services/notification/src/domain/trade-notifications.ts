/**
 * Who is told what when an exchange moves on: one entry per addressed user, from one exchange or rating event.
 * Pure (no database): the consumers store them (domain/notify.ts). `referenceId` is always the exchange request, so
 * the web app can open it (/dashboard?requestId=...).
 */
import { type EventPayload, formatMoney, type NotificationParams, type NotificationType } from '@puente/contracts';
import type { RequestTerms } from './request-notification.ts';

export interface NewNotification {
  userId: number;
  type: NotificationType;
  content: string;
  /** The values `content` names, for a client or an email to word it in the reader's language. */
  params: NotificationParams;
  referenceId: number | null;
}

type Parties = { matchId: number; requestId: number; requesterId: number; matcherId: number };

const request = (requestId: number) => `exchange request #${requestId}`;
type Terms = Pick<RequestTerms, 'fromCurrency' | 'toCurrency' | 'amount'>;
/** 'exchange request #12 (£500.00 for CLP)' */
const withTerms = (requestId: number, terms: Terms) =>
  `${request(requestId)} (${formatMoney(terms.fromCurrency, terms.amount, 'en')} for ${terms.toCurrency})`;
const termsOf = ({ amount, fromCurrency, toCurrency }: Terms): NotificationParams => ({ amount, fromCurrency, toCurrency });

const to = (userId: number, type: NotificationType, requestId: number, content: string, params: NotificationParams = {}): NewNotification =>
  ({ userId, type, content, params, referenceId: requestId });

/** Someone accepted the requester's request: the requester approves or declines. */
export function matchCreated(m: EventPayload<'matchCreated'>): NewNotification[] {
  return [to(m.requesterId, 'exchange_match', m.requestId,
    `Someone accepted your ${withTerms(m.requestId, m)}. Approve the match to exchange bank details.`, termsOf(m))];
}

/** The requester approved: the matcher may now see the bank details (the requester approved it, so knows). */
export function matchConfirmed(m: EventPayload<'matchConfirmed'>): NewNotification[] {
  return [to(m.matcherId, 'exchange_confirmed', m.requestId,
    `Your match on ${withTerms(m.requestId, m)} was approved. Bank details are now available to both of you.`, termsOf(m))];
}

/** One party marked it completed: the other is told (both, for an event that does not say who). */
export function matchCompleted(m: EventPayload<'matchCompleted'>): NewNotification[] {
  const content = `The exchange on ${withTerms(m.requestId, m)} was marked completed. Rate your exchange partner.`;
  return [m.requesterId, m.matcherId]
    .filter((userId) => userId !== m.completedById)
    .map((userId) => to(userId, 'exchange_completed', m.requestId, content, termsOf(m)));
}

/** A pending match called off: the party who did not call it off is told why. */
export function matchCancelled(m: EventPayload<'matchCancelled'>): NewNotification[] {
  switch (m.reason) {
    case 'withdrawn':
      return [to(m.requesterId, 'match_cancelled', m.requestId,
        `The user who accepted your ${request(m.requestId)} withdrew. Your request is open again.`, { cancelReason: 'withdrawn' })];
    case 'declined':
      return [to(m.matcherId, 'match_declined', m.requestId, `The owner of ${request(m.requestId)} declined your match.`)];
    case 'request-cancelled':
      return [to(m.matcherId, 'match_cancelled', m.requestId, `The owner cancelled ${request(m.requestId)}, which you had accepted.`, { cancelReason: 'request-cancelled' })];
    case 'dispute-cancelled':
      return []; // the dispute's resolution tells both parties (disputeResolved)
  }
}

/** The requester did not approve in time: both parties are told; the request is open again. */
export function matchExpired(m: Parties): NewNotification[] {
  return [
    to(m.requesterId, 'match_expired', m.requestId, `The match on your ${request(m.requestId)} expired before you approved it. Your request is open again.`, { role: 'requester' }),
    to(m.matcherId, 'match_expired', m.requestId, `Your match on ${request(m.requestId)} expired: its owner did not approve it in time.`, { role: 'matcher' }),
  ];
}

/** A confirmed match not yet completed: both parties are reminded. */
export function completionReminded(m: EventPayload<'matchCompletionReminded'>): NewNotification[] {
  const content = `Your exchange on ${request(m.requestId)} was confirmed ${m.hoursSinceConfirmed} hours ago. Once you have paid and been paid, mark it completed.`;
  return [m.requesterId, m.matcherId].map((userId) => to(userId, 'completion_reminder', m.requestId, content, { hoursSinceConfirmed: m.hoursSinceConfirmed }));
}

/** One party marked their payment sent: the other checks their bank before completing. */
export function paymentMarked(m: EventPayload<'matchPaymentMarked'>): NewNotification[] {
  const other = m.paidById === m.requesterId ? m.matcherId : m.requesterId;
  return [to(other, 'payment_sent', m.requestId,
    `Your exchange partner on ${request(m.requestId)} marked their payment sent. Check your bank account, then mark the exchange completed.`)];
}

const DISPUTE_REASONS: Record<EventPayload<'disputeOpened'>['reason'], string> = {
  no_payment: 'no payment received',
  wrong_amount: 'wrong amount',
  third_party_payment: 'third-party payment',
  unresponsive: 'unresponsive',
  other: 'other',
};

/** A party disputed a confirmed match: both are told it is on hold until an admin decides. */
export function disputeOpened(d: EventPayload<'disputeOpened'>): NewNotification[] {
  const reason = DISPUTE_REASONS[d.reason];
  return [d.requesterId, d.matcherId].map((userId) => to(userId, 'dispute_opened', d.requestId, userId === d.openedById
    ? `You opened a dispute on ${request(d.requestId)} (${reason}). The exchange is on hold until an admin resolves it.`
    : `Your exchange partner opened a dispute on ${request(d.requestId)} (${reason}). The exchange is on hold until an admin resolves it: add what you know in its chat.`,
  { disputeReason: d.reason, openedByYou: userId === d.openedById }));
}

/** An admin resolved a dispute: both parties learn the outcome, and a sanctioned party what they received. */
export function disputeResolved(d: EventPayload<'disputeResolved'>): NewNotification[] {
  const outcome = d.outcome === 'completed' ? 'the exchange was marked completed' : 'the exchange was cancelled';
  const sanction = (userId: number) => {
    if (d.sanction?.userId !== userId) return '';
    return d.sanction.kind === 'warning' ? ' You received a warning.' : ' Your trading is suspended until an admin lifts it.';
  };
  return [d.requesterId, d.matcherId].map((userId) => to(userId, 'dispute_resolved', d.requestId,
    `An admin resolved the dispute on ${request(d.requestId)}: ${outcome}.${sanction(userId)}`,
    { outcome: d.outcome, ...(d.sanction?.userId === userId ? { sanction: d.sanction.kind } : {}) }));
}

/** An open request nobody took in time. */
export function requestExpired(r: EventPayload<'requestExpired'>): NewNotification[] {
  return [to(r.userId, 'request_expired', r.requestId, `Your ${request(r.requestId)} expired without a match.`)];
}

/** The rated user learns the rating (not who gave it: the ratings list shows that). */
export function ratingSubmitted(r: EventPayload<'ratingSubmitted'>): NewNotification[] {
  const about = r.requestId === undefined ? 'an exchange' : `${request(r.requestId)}`;
  return [{ userId: r.toUserId, type: 'rating', content: `You received a ${r.rating}-star rating for ${about}.`, params: { stars: r.rating }, referenceId: r.requestId ?? null }];
}

/** A premium renewal could not be charged: the user stays premium while the payment provider retries. */
export function paymentFailed(p: EventPayload<'subscriptionPaymentFailed'>): NewNotification[] {
  return [{
    userId: p.userId, type: 'payment_failed', params: {}, referenceId: null,
    content: 'Your Premium payment failed. It will be tried again: check your card on the Subscription page to keep Premium.',
  }];
}
