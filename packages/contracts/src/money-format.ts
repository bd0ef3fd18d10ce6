/**
 * Money and numbers as the product shows them (spec section 9), the one formatter of the web app, the notification
 * service and the exchange service. Each value is rounded half-up on its decimal digits by money.ts (never through
 * a binary float), and only then given the locale's marks by Intl.NumberFormat, which receives the rounded decimal
 * string and so prints any amount exactly:
 *
 * | what                | 'en'                       | 'es-CL'           |
 * |---------------------|----------------------------|-------------------|
 * | GBP, 2 decimals     | £1,234.50                  | £1.234,50         |
 * | CLP, whole pesos    | $255,000 CLP               | $255.000          |
 * | plan figure         | £200, £9.99, 255,000 CLP   | £200, 255.000 CLP |
 * | rate, 4 decimals    | 1187.5432 (not grouped)    | 1.187,5432        |
 *
 * In English the spec's `$255,000 CLP` tells pesos from dollars (Intl alone would write "CLP 255,000"); Chile
 * writes its own pesos `$255.000`. Amounts are a decimal string ('1234.50', as on the bus) or a finite number (as in
 * the API's JSON, read by its shortest decimal form: 1.005 is '1.005'), in major units.
 */
import BigLib from 'big.js';
import { CurrencyDecimals, type Currency } from './api/common.ts';
import { decimal } from './money.ts';

/** The locales the product writes numbers in: the spec's English, and Chile's Spanish. */
export const NumberLocales = ['en', 'es-CL'] as const;
export type NumberLocale = (typeof NumberLocales)[number];

/** A decimal string ('1234.50', '-3') or a finite number, in major units. */
export type DecimalValue = string | number;

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** `value` rounded half-up (away from zero) to `places` decimals, as a plain decimal string with exactly that many. */
function rounded(value: DecimalValue, places: number): string {
  if (typeof value === 'number' ? !Number.isFinite(value) : !DECIMAL_TEXT.test(value)) {
    throw new Error(`not a decimal: ${JSON.stringify(typeof value === 'number' ? String(value) : value)}`);
  }
  const exact = decimal(value).round(places, BigLib.roundHalfUp);
  return (exact.eq(0) ? exact.abs() : exact).toFixed(places); // no '-0.00'
}

/** One Intl formatter per locale, decimals and grouping, made on first use: the web formats on every render. */
const formatters = new Map<string, Intl.NumberFormat>();
function digits(locale: NumberLocale, places: number, grouping: boolean): Intl.NumberFormat {
  const key = `${locale}|${places}|${grouping}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: grouping });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** The sign, then `symbol`, then the digits with the locale's marks: '-£5.00' (an amount is never negative, but a chart's axis may be). */
function withSymbol(symbol: string, value: string, locale: NumberLocale, places: number): string {
  const negative = value.startsWith('-');
  return `${negative ? '-' : ''}${symbol}${digits(locale, places, true).format(negative ? value.slice(1) as `${number}` : value as `${number}`)}`;
}

function decimalsOf(currency: Currency): number {
  if (!Object.hasOwn(CurrencyDecimals, currency)) throw new Error(`Unsupported currency: ${String(currency)}`);
  return CurrencyDecimals[currency];
}

/**
 * An amount as the product shows it: GBP as £ with 2 decimals (`£1,234.50`; `£1.234,50`), CLP as $ in whole pesos
 * followed by CLP in English (`$255,000 CLP`), as Chile writes it in Spanish (`$255.000`). Half-up: £0.005 → £0.01.
 */
export function formatMoney(currency: Currency, amount: DecimalValue, locale: NumberLocale): string {
  const places = decimalsOf(currency);
  const text = withSymbol(currency === 'GBP' ? '£' : '$', rounded(amount, places), locale, places);
  return currency === 'CLP' && locale === 'en' ? `${text} CLP` : text;
}

/**
 * A plan figure as the spec's plan table writes it: pounds without pence when there are none (`£200`, `£9.99`,
 * `£10,000`), pesos as a number then CLP (`255,000 CLP`; `255.000 CLP`).
 */
export function formatPlanAmount(currency: Currency, amount: DecimalValue, locale: NumberLocale): string {
  if (currency === 'CLP') return `${formatWholeNumber(amount, locale)} CLP`;
  const pence = rounded(amount, decimalsOf(currency));
  return pence.endsWith('.00') ? withSymbol('£', pence.slice(0, -3), locale, 0) : withSymbol('£', pence, locale, 2);
}

/** A number rounded half-up to `places` decimals with the locale's marks (`1,234.5`; `1.234,5`); `grouping` false leaves out thousands separators. */
export function formatDecimal(value: DecimalValue, places: number, locale: NumberLocale, { grouping = true } = {}): string {
  return digits(locale, places, grouping).format(rounded(value, places) as `${number}`);
}

/** A whole number (rounded half-up) with the locale's thousands separators: `12,750,000`; `12.750.000`. */
export const formatWholeNumber = (value: DecimalValue, locale: NumberLocale): string => formatDecimal(value, 0, locale);

/** An exchange rate (CLP per GBP) with 4 decimals: `1187.5432` in English, as the spec writes it; `1.187,5432` in Spanish. */
export const formatRate = (rate: DecimalValue, locale: NumberLocale): string =>
  formatDecimal(rate, 4, locale, { grouping: locale !== 'en' });
