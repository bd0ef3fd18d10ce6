/**
 * The text of an exchange_request notification, in the spec's money display (section 9): GBP as £ with 2 decimals,
 * CLP as $ rounded with thousands separators followed by CLP, the rate with 4 decimals; formatted exactly from the
 * event's decimal strings by the contracts' money formatter.
 */
import { type EventPayload, formatMoney, formatRate } from '@puente/contracts';

export type RequestTerms = Pick<EventPayload<'requestNotificationsSent'>, 'fromCurrency' | 'toCurrency' | 'amount' | 'exchangeRate'>;

/** 'New exchange request #12: £500.00 for CLP at 1275.0000 CLP per GBP' */
export function requestNotificationContent(requestId: number, terms: RequestTerms): string {
  return `New exchange request #${requestId}: ${formatMoney(terms.fromCurrency, terms.amount, 'en')} for ${terms.toCurrency} at ${formatRate(terms.exchangeRate, 'en')} CLP per GBP`;
}
