import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../lib/i18n.ts';
import {
  badgeCount, formatCurrency, formatDateTime, formatDayMonth, formatMonthYear, formatNumber, formatPlanAmount, parseAmount, formatRate, formatRelativeTime,
  formatShortDate, formatSortCode,
  formatTrustRating, initials, maskAccountNumber, ratingWord, requestAgeBadge, starCount, trustRatingLabel,
} from './format.ts';

describe('money', () => {
  it('shows GBP as £ with 2 decimals', () => {
    expect(formatCurrency(200, 'GBP')).toBe('£200.00');
    expect(formatCurrency(9.99, 'GBP')).toBe('£9.99');
    expect(formatCurrency(1234.5, 'GBP')).toBe('£1,234.50');
    expect(formatCurrency(0.005, 'GBP')).toBe('£0.01');
    expect(formatCurrency(0, 'GBP')).toBe('£0.00');
  });

  it('shows CLP as $ rounded with thousands separators, then CLP', () => {
    expect(formatCurrency(255000, 'CLP')).toBe('$255,000 CLP');
    expect(formatCurrency(12750000, 'CLP')).toBe('$12,750,000 CLP');
    expect(formatCurrency(593771.6, 'CLP')).toBe('$593,772 CLP');
    expect(formatCurrency(999.4, 'CLP')).toBe('$999 CLP');
    expect(formatCurrency(0, 'CLP')).toBe('$0 CLP');
  });

  it('takes an event\'s decimal string as well as the API\'s number, and rounds on the decimal digits, never a float', () => {
    expect(formatCurrency('1234.50', 'GBP')).toBe('£1,234.50');
    expect(formatCurrency('255000.00', 'CLP')).toBe('$255,000 CLP');
    expect(formatCurrency(1.005, 'GBP')).toBe('£1.01'); // (1.005).toFixed(2) is '1.00'
    expect(formatCurrency('123456789012345678901.5', 'CLP')).toBe('$123,456,789,012,345,678,902 CLP');
    expect(formatRate('1275.0000')).toBe('1275.0000');
  });

  it('writes plan figures as the plan table does: pence only when there are some, pesos then CLP', () => {
    expect(formatPlanAmount(0, 'GBP')).toBe('£0');
    expect(formatPlanAmount(200, 'GBP')).toBe('£200');
    expect(formatPlanAmount(9.99, 'GBP')).toBe('£9.99');
    expect(formatPlanAmount(10000, 'GBP')).toBe('£10,000');
    expect(formatPlanAmount(255000, 'CLP')).toBe('255,000 CLP');
  });

  it('supports only GBP and CLP', () => {
    expect(() => formatCurrency(1, 'USD' as never)).toThrow('Unsupported currency: USD');
  });
});

describe('rates and ratings', () => {
  it('shows a rate with 4 decimals', () => {
    expect(formatRate(1187.5)).toBe('1187.5000');
    expect(formatRate(1187.54321)).toBe('1187.5432');
  });

  it('shows a trust rating with 1 decimal, x.x/5 or Not rated yet', () => {
    expect(formatTrustRating(4)).toBe('4.0');
    expect(formatTrustRating(4.25)).toBe('4.3');
    expect(trustRatingLabel(4.5)).toBe('4.5/5');
    expect(trustRatingLabel(0)).toBe('0.0/5');
    expect(trustRatingLabel(null)).toBe('Not rated yet');
    expect(trustRatingLabel(undefined)).toBe('Not rated yet');
  });

  it('floors stars and clamps them to 0-5', () => {
    expect(starCount(4.9)).toBe(4);
    expect(starCount(5)).toBe(5);
    expect(starCount(7)).toBe(5);
    expect(starCount(-1)).toBe(0);
    expect(starCount(0.99)).toBe(0);
    expect(starCount(null)).toBe(0);
    expect(starCount(Number.NaN)).toBe(0);
  });

  it('names the stars', () => {
    expect([1, 2, 3, 4, 5].map(ratingWord)).toEqual(['Poor', 'Fair', 'Good', 'Very Good', 'Excellent']);
  });
});

describe('time', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const s = 1000;
  const min = 60 * s;
  const h = 60 * min;
  const d = 24 * h;

  it("reads 'just now' under 60 s, then minutes, hours and days up to 6, then a short date", () => {
    expect(formatRelativeTime(ago(0), now)).toBe('just now');
    expect(formatRelativeTime(ago(59 * s), now)).toBe('just now');
    expect(formatRelativeTime(ago(60 * s), now)).toBe('1 minute ago');
    expect(formatRelativeTime(ago(59 * min), now)).toBe('59 minutes ago');
    expect(formatRelativeTime(ago(h), now)).toBe('1 hour ago');
    expect(formatRelativeTime(ago(23 * h), now)).toBe('23 hours ago');
    expect(formatRelativeTime(ago(d), now)).toBe('1 day ago');
    expect(formatRelativeTime(ago(6 * d + 23 * h), now)).toBe('6 days ago');
    expect(formatRelativeTime(ago(7 * d), now)).toBe('3 Mar 2026');
    expect(formatRelativeTime('2025-12-25T08:00:00.000Z', now)).toBe('25 Dec 2025');
  });

  it("reads a time in the future as 'just now'", () => {
    expect(formatRelativeTime(new Date(now.getTime() + 5 * min), now)).toBe('just now');
  });

  it("gives the request age badge: 'New' under 1 hour, then hours, then days", () => {
    expect(requestAgeBadge(ago(0), now)).toBe('New');
    expect(requestAgeBadge(ago(59 * min), now)).toBe('New');
    expect(requestAgeBadge(ago(h), now)).toBe('1h');
    expect(requestAgeBadge(ago(23 * h + 59 * min), now)).toBe('23h');
    expect(requestAgeBadge(ago(d), now)).toBe('1d');
    expect(requestAgeBadge(ago(40 * d), now)).toBe('40d');
  });

  it('writes short dates and month-year in UTC', () => {
    expect(formatShortDate('2026-01-05T23:30:00.000Z')).toBe('5 Jan 2026');
    expect(formatMonthYear('2026-11-21T06:00:00.000Z')).toBe('November 2026');
  });
});

describe('accounts and badges', () => {
  it('masks account numbers to their last 4 characters', () => {
    expect(maskAccountNumber('31926819')).toBe('•••• 6819');
    expect(maskAccountNumber('00-123-45678-09')).toBe('•••• 8-09');
    expect(maskAccountNumber('1234')).toBe('1234');
    expect(maskAccountNumber('12')).toBe('12');
  });

  it('prints sort codes in pairs', () => {
    expect(formatSortCode('040004')).toBe('04-00-04');
    expect(formatSortCode('12-34-56')).toBe('12-34-56');
  });

  it("shows the notification badge up to 9, then '9+'", () => {
    expect(badgeCount(0)).toBe('');
    expect(badgeCount(1)).toBe('1');
    expect(badgeCount(9)).toBe('9');
    expect(badgeCount(10)).toBe('9+');
    expect(badgeCount(250)).toBe('9+');
  });

  it('makes initials', () => {
    expect(initials('ana', 'rojas')).toBe('AR');
    expect(initials('', '')).toBe('?');
  });
});

describe('in Spanish (es-CL)', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  beforeEach(async () => { await i18n.changeLanguage('es'); });
  afterEach(async () => { await i18n.changeLanguage('en'); });

  it('writes money as Chile does: $255.000 and £1.234,50', () => {
    expect(formatCurrency(255000, 'CLP')).toBe('$255.000');
    expect(formatCurrency(593771.6, 'CLP')).toBe('$593.772');
    expect(formatCurrency(1234.5, 'GBP')).toBe('£1.234,50');
    expect(formatCurrency(9.99, 'GBP')).toBe('£9,99');
    expect(formatNumber(12750000)).toBe('12.750.000');
    expect(formatCurrency('1234.5', 'GBP')).toBe('£1.234,50');
    expect(formatPlanAmount(10000, 'GBP')).toBe('£10.000');
    expect(formatPlanAmount(9.99, 'GBP')).toBe('£9,99');
    expect(formatPlanAmount(255000, 'CLP')).toBe('255.000 CLP');
  });

  it('writes rates and ratings with a decimal comma', () => {
    expect(formatRate(1187.54321)).toBe('1.187,5432');
    expect(formatTrustRating(4.25)).toBe('4,3');
    expect(trustRatingLabel(4.5)).toBe('4,5/5');
    expect(trustRatingLabel(null)).toBe('Sin calificaciones aún');
    expect(ratingWord(4)).toBe('Muy buena');
  });

  it('writes dates and relative times in Spanish, in UTC', () => {
    expect(formatShortDate('2026-01-05T23:30:00.000Z')).toBe('5 ene 2026');
    expect(formatDayMonth('2026-01-05T23:30:00.000Z')).toBe('5 ene');
    expect(formatMonthYear('2026-11-21T06:00:00.000Z')).toBe('noviembre de 2026');
    expect(formatDateTime('2026-01-05T14:03:00.000Z')).toBe('5 ene 2026, 14:03 UTC');
    expect(formatRelativeTime(new Date(now.getTime() - 30_000), now)).toBe('recién');
    expect(formatRelativeTime(new Date(now.getTime() - 60_000), now)).toBe('hace 1 minuto');
    expect(formatRelativeTime(new Date(now.getTime() - 3 * 3_600_000), now)).toBe('hace 3 horas');
    expect(formatRelativeTime(new Date(now.getTime() - 7 * 86_400_000), now)).toBe('3 mar 2026');
    expect(requestAgeBadge(new Date(now.getTime() - 5 * 3_600_000), now)).toBe('5 h');
  });

  it('reads typed amounts as Chile writes them, and as JavaScript does', () => {
    expect(parseAmount('255.000')).toBe(255000);
    expect(parseAmount('1.234,50')).toBe(1234.5);
    expect(parseAmount('100,5')).toBe(100.5);
    expect(parseAmount('100.50')).toBe(100.5);
    expect(parseAmount(' 500 ')).toBe(500);
    expect(parseAmount('abc')).toBeNaN();
  });

  it('goes back to the English formats when the language does', async () => {
    await i18n.changeLanguage('en');
    expect(parseAmount('255.000')).toBe(255);
    expect(parseAmount('1,000')).toBeNaN();
    expect(formatCurrency(255000, 'CLP')).toBe('$255,000 CLP');
    expect(formatCurrency(1234.5, 'GBP')).toBe('£1,234.50');
    expect(formatNumber(12750000)).toBe('12,750,000');
    expect(formatDateTime('2026-01-05T14:03:00.000Z')).toBe('5 Jan 2026, 14:03 UTC');
  });
});
