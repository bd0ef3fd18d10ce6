/**
 * The text of an exchange_request notification, in the spec's money display (section 9): GBP as £ with 2 decimals,
 * CLP as $ rounded with thousands separators followed by CLP, the rate with 4 decimals. Formatted from the event's
 * decimal strings digit by digit (BigInt), never through a binary float, so any amount prints exactly.
 */
import type { Currency, EventPayload } from '@puente/contracts';

export type RequestTerms = Pick<EventPayload<'requestNotificationsSent'>, 'fromCurrency' | 'toCurrency' | 'amount' | 'exchangeRate'>;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal string rounded half-up to `places` decimals ('1275.00005', 4 → '1275.0001'). */
export function roundDecimal(value: string, places: number): string {
  const match = DECIMAL.exec(value);
  if (!match) throw new Error(`not a decimal string: ${JSON.stringify(value)}`);
  const [, whole = '0', fraction = ''] = match;
  let scaled = BigInt(whole + fraction.padEnd(places, '0').slice(0, places));
  if ((fraction[places] ?? '0') >= '5') scaled += 1n; // half-up: the first dropped digit decides
  const digits = scaled.toString().padStart(places + 1, '0');
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** Thousands separators in the whole part ('1234567.5' → '1,234,567.5'). */
function groupThousands(value: string): string {
  const [whole = '', fraction] = value.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** '£1,234.50' for GBP; '$255,000 CLP' for CLP (rounded half-up to whole pesos). */
export function formatMoney(currency: Currency, amount: string): string {
  return currency === 'GBP' ? `£${groupThousands(roundDecimal(amount, 2))}` : `$${groupThousands(roundDecimal(amount, 0))} CLP`;
}

/** A rounded decimal string as Chile writes it: '.' between thousands, ',' before decimals ('1234.50' → '1.234,50'). */
const chilean = (value: string) => groupThousands(value).replace(/[,.]/g, (c) => (c === ',' ? '.' : ','));

/** As the web app writes it in Spanish: '£1.234,50' for GBP, '$255.000' for CLP. */
export function formatMoneySpanish(currency: Currency, amount: string): string {
  return currency === 'GBP' ? `£${chilean(roundDecimal(amount, 2))}` : `$${chilean(roundDecimal(amount, 0))}`;
}

/** The rate in Spanish: '1.275,0000' (CLP per GBP). */
export const formatRateSpanish = (rate: string): string => chilean(roundDecimal(rate, 4));

/** The rate, always CLP per GBP, with 4 decimals. */
export const formatRate = (rate: string): string => `${roundDecimal(rate, 4)} CLP per GBP`;

/** 'New exchange request #12: £500.00 for CLP at 1275.0000 CLP per GBP' */
export function requestNotificationContent(requestId: number, terms: RequestTerms): string {
  return `New exchange request #${requestId}: ${formatMoney(terms.fromCurrency, terms.amount)} for ${terms.toCurrency} at ${formatRate(terms.exchangeRate)}`;
}
