/**
 * A notification in the reader's language. In English its content: the spec's sentence, as the server
 * wrote it. In Spanish the catalogue's sentence (locales/es/notifications.ts `texts`) made from its type and params,
 * money and numbers as Chile writes them. One without params (stored before them), of a type this app does not
 * know, or missing a value its sentence names, is shown by its content.
 */
import type { NotificationParams } from '@puente/contracts';
import { currentLanguage, i18n } from '../../lib/i18n.ts';
import { formatCurrency, formatRate } from '../../utils/format.ts';

/** What a notification is worded from; its type a string, as a type newer than this app may come. */
export interface NotificationWords {
  type: string;
  content: string;
  params: NotificationParams | null;
  referenceId: number | null;
}

const t = i18n.getFixedT(null, 'notifications', 'texts');

/** The sentence of each known type; undefined when a value it names is missing. */
const sentences: Record<string, (p: NotificationParams, requestId: number | undefined) => string | undefined> = {
  exchange_request: (p, requestId) => {
    const money = terms(p);
    return money && requestId && p.exchangeRate ? t('exchangeRequest', { requestId, ...money, rate: formatRate(p.exchangeRate) }) : undefined;
  },
  exchange_match: withTerms('exchangeMatch'),
  exchange_confirmed: withTerms('exchangeConfirmed'),
  exchange_completed: withTerms('exchangeCompleted'),
  match_cancelled: (p, requestId) => {
    if (!requestId || !p.cancelReason) return undefined;
    return t(p.cancelReason === 'withdrawn' ? 'matchWithdrawn' : 'requestCancelled', { requestId });
  },
  match_declined: (_p, requestId) => (requestId ? t('matchDeclined', { requestId }) : undefined),
  match_expired: (p, requestId) => {
    if (!requestId || !p.role) return undefined;
    return t(p.role === 'requester' ? 'matchExpiredRequester' : 'matchExpiredMatcher', { requestId });
  },
  completion_reminder: (p, requestId) =>
    (requestId && p.hoursSinceConfirmed !== undefined ? t('completionReminder', { requestId, count: p.hoursSinceConfirmed }) : undefined),
  payment_sent: (_p, requestId) => (requestId ? t('paymentSent', { requestId }) : undefined),
  dispute_opened: (p, requestId) => {
    if (!requestId || !p.disputeReason || p.openedByYou === undefined) return undefined;
    return t(p.openedByYou ? 'disputeOpenedByYou' : 'disputeOpenedByPartner', { requestId, reason: t(`disputeReasons.${p.disputeReason}`) });
  },
  dispute_resolved: (p, requestId) => {
    if (!requestId || !p.outcome) return undefined;
    const resolved = t(p.outcome === 'completed' ? 'disputeCompleted' : 'disputeCancelled', { requestId });
    if (!p.sanction) return resolved;
    return `${resolved} ${t(p.sanction === 'warning' ? 'sanctionWarning' : 'sanctionSuspension')}`;
  },
  request_expired: (_p, requestId) => (requestId ? t('requestExpired', { requestId }) : undefined),
  rating: (p, requestId) => {
    if (p.stars === undefined) return undefined;
    return requestId ? t('rating', { requestId, count: p.stars }) : t('ratingNoRequest', { count: p.stars });
  },
  payment_failed: () => t('paymentFailed'),
};

/** The amount in its currency and the currency wanted, when the params name them. */
function terms(p: NotificationParams) {
  return p.amount && p.fromCurrency && p.toCurrency
    ? { amount: formatCurrency(p.amount, p.fromCurrency), toCurrency: p.toCurrency } : undefined;
}

function withTerms(key: string) {
  return (p: NotificationParams, requestId: number | undefined) => {
    const money = terms(p);
    return money && requestId ? t(key, { requestId, ...money }) : undefined;
  };
}

/** The catalogue's sentence in the language of the moment; undefined when it cannot be made (then: the content). */
export function wordedNotification(n: NotificationWords): string | undefined {
  if (!n.params || !Object.hasOwn(sentences, n.type)) return undefined;
  return sentences[n.type]!(n.params, n.referenceId ?? undefined) || undefined;
}

export function notificationText(n: NotificationWords): string {
  return (currentLanguage() !== 'en' && wordedNotification(n)) || n.content;
}
