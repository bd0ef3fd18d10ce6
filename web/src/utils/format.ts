/**
 * Every formatting rule of the product in one module (spec section 9): money, rates, trust ratings, stars, relative
 * time, the request age badge, masked account numbers and dates. Each follows the UI's language: English as the
 * spec writes it (`$255,000 CLP`, `£1,234.50`), Spanish as Chile writes it (`$255.000`, `£1.234,50`). Money and
 * numbers are the contracts' formatter (money-format.ts), exact on the decimal digits, here bound to the language.
 */
import {
  type Currency, type DecimalValue, formatDecimal, formatMoney, formatPlanAmount as formatPlanAmountIn, formatRate as formatRateIn,
  formatWholeNumber, type NumberLocale,
} from '@puente/contracts';
import { currentLanguage, i18n, type Language } from '../lib/i18n.ts';

/** The shell's words (locales/<language>/common.ts), in the language of the moment. */
const t = i18n.getFixedT(null, 'common');

/** Numbers in English as the spec writes them, in Spanish as Chile does. */
const numberLocales: Record<Language, NumberLocale> = { en: 'en', es: 'es-CL' };
const numberLocale = () => numberLocales[currentLanguage()];

/** One Intl formatter per language and purpose, made on first use: formatting runs on every render. */
function perLanguage<F>(make: (language: Language) => F): () => F {
  const made = new Map<Language, F>();
  return () => {
    const language = currentLanguage();
    let formatter = made.get(language);
    if (!formatter) made.set(language, formatter = make(language));
    return formatter;
  };
}

/**
 * GBP as £ with 2 decimals (`£1,234.50`; `£1.234,50` in Spanish); CLP as $ rounded (`$255,000 CLP`; `$255.000`).
 * The amount is the API's number or an event's decimal string, in major units.
 */
export function formatCurrency(amount: DecimalValue, currency: Currency): string {
  return formatMoney(currency, amount, numberLocale());
}

/** A plan figure as the plan table writes it: `£200`, `£9.99`, `255,000 CLP` (`255.000 CLP` in Spanish). */
export function formatPlanAmount(amount: DecimalValue, currency: Currency): string {
  return formatPlanAmountIn(currency, amount, numberLocale());
}

/** A whole number with the language's thousands separators (`255,000`; `255.000`). */
export function formatNumber(value: DecimalValue): string {
  return formatWholeNumber(value, numberLocale());
}

/**
 * A typed amount as a number: in English as JavaScript reads it (`1000.50`), as before; in Spanish also as Chile
 * writes it (`255.000`, `1.234,50`), so that 255.000 pesos are not 255. NaN for anything else.
 */
export function parseAmount(text: string): number {
  if (currentLanguage() !== 'es') return Number(text);
  const value = text.trim();
  if (value.includes(',')) return Number(value.replace(/\./g, '').replace(',', '.'));
  return Number(/^\d{1,3}(\.\d{3})+$/.test(value) ? value.replace(/\./g, '') : value);
}

/** An exchange rate with 4 decimals (`1187.5432`; `1.187,5432` in Spanish). */
export function formatRate(rate: DecimalValue): string {
  return formatRateIn(rate, numberLocale());
}

/** A trust rating with 1 decimal (`4.5`; `4,5` in Spanish). */
export function formatTrustRating(rating: number): string {
  return formatDecimal(rating, 1, numberLocale());
}

/** The trust rating as the dashboard shows it: `4.5/5`, or 'Not rated yet' before the first rating. */
export function trustRatingLabel(rating: number | null | undefined): string {
  return rating === null || rating === undefined ? t('trust.notRated') : t('trust.outOfFive', { rating: formatTrustRating(rating) });
}

/** Filled stars for a rating: floored and clamped to 0-5. */
export function starCount(rating: number | null | undefined): number {
  if (rating === null || rating === undefined || Number.isNaN(rating)) return 0;
  return Math.min(5, Math.max(0, Math.floor(rating)));
}

/** The words for 1-5 stars: Poor, Fair, Good, Very Good, Excellent. */
export function ratingWord(stars: number): string {
  return t(`ratingWords.${Math.min(5, Math.max(1, Math.round(stars)))}`);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Dates in UTC, so every viewer reads the same day as the server's timestamps; Chile's style in Spanish, 24-hour. */
const dates = (options: Intl.DateTimeFormatOptions) => perLanguage((language) => new Intl.DateTimeFormat(
  language === 'es' ? 'es-CL' : 'en-GB', { ...options, timeZone: 'UTC', ...(language === 'es' && options.hour ? { hourCycle: 'h23' } : {}) },
));
const shortDateFormat = dates({ day: 'numeric', month: 'short', year: 'numeric' });
const dayMonthFormat = dates({ day: 'numeric', month: 'short' });
const monthYearFormat = dates({ month: 'long', year: 'numeric' });
const dateTimeFormat = dates({ day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });

/** A short date: `5 Jan 2026` (`5 ene 2026`). */
export function formatShortDate(date: Date | string | number): string {
  return shortDateFormat().format(new Date(date));
}

/** `5 Jan` (`5 ene`), for a chart's days. */
export function formatDayMonth(date: Date | string): string {
  return dayMonthFormat().format(new Date(date));
}

/** `November 2026` (`noviembre de 2026`), for 'Member since'. */
export function formatMonthYear(date: Date | string): string {
  return monthYearFormat().format(new Date(date));
}

/** `5 Jan 2026, 14:03 UTC` (`5 ene 2026, 14:03 UTC`), for tables of timestamps (admin attempts). */
export function formatDateTime(date: Date | string): string {
  return dateTimeFormat().format(new Date(date));
}

/**
 * Relative time: 'just now' under 60 s, then minutes, hours, and days up to 6 days; from 7 days on a short date.
 * A time in the future (clock skew) reads 'just now'.
 */
export function formatRelativeTime(date: Date | string, now: Date | number = Date.now()): string {
  const then = new Date(date).getTime();
  const elapsed = new Date(now).getTime() - then;
  if (elapsed < MINUTE) return t('time.justNow');
  if (elapsed < HOUR) return t('time.minutes', { count: Math.floor(elapsed / MINUTE) });
  if (elapsed < DAY) return t('time.hours', { count: Math.floor(elapsed / HOUR) });
  const days = Math.floor(elapsed / DAY);
  if (days <= 6) return t('time.days', { count: days });
  return formatShortDate(then);
}

/** The exchange request age badge: 'New' under 1 hour, then hours (`5h`), then days (`3d`). */
export function requestAgeBadge(createdAt: Date | string, now: Date | number = Date.now()): string {
  const elapsed = Math.max(0, new Date(now).getTime() - new Date(createdAt).getTime());
  if (elapsed < HOUR) return t('age.new');
  if (elapsed < DAY) return t('age.hours', { count: Math.floor(elapsed / HOUR) });
  return t('age.days', { count: Math.floor(elapsed / DAY) });
}

/** An account number with only its last 4 characters visible (`•••• 5678`); 4 characters or fewer stay as they are. */
export function maskAccountNumber(accountNumber: string): string {
  const value = accountNumber.trim();
  return value.length <= 4 ? value : `•••• ${value.slice(-4)}`;
}

/** A UK sort code as printed: `12-34-56` (stored as 6 digits). */
export function formatSortCode(sortCode: string): string {
  const digits = sortCode.replace(/\D/g, '');
  return digits.length === 6 ? `${digits.slice(0, 2)}-${digits.slice(2, 4)}-${digits.slice(4)}` : sortCode;
}

/** The notification badge: nothing for 0, the count up to 9, then '9+'. */
export function badgeCount(count: number): string {
  if (count <= 0) return '';
  return count > 9 ? '9+' : String(count);
}

/** Initials for an avatar without a picture: `AR` for Ana Rojas. */
export function initials(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || '?';
}
