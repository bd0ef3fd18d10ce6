import { describe, expect, it } from 'vitest';
import { formatMoney, formatRate, requestNotificationContent, roundDecimal } from './request-notification.ts';

describe('the exchange_request notification text', () => {
  it('shows a GBP request as £ with 2 decimals and a CLP request as $ with thousands separators then CLP', () => {
    expect(requestNotificationContent(12, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '500.00', exchangeRate: '1275.0000' }))
      .toBe('New exchange request #12: £500.00 for CLP at 1275.0000 CLP per GBP');
    expect(requestNotificationContent(13, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000', exchangeRate: '1275.0000' }))
      .toBe('New exchange request #13: $255,000 CLP for GBP at 1275.0000 CLP per GBP');
  });

  it('formats money as the spec displays it, whatever the decimals of the string', () => {
    expect(formatMoney('GBP', '500')).toBe('£500.00');
    expect(formatMoney('GBP', '0.5')).toBe('£0.50');
    expect(formatMoney('GBP', '10000.00')).toBe('£10,000.00');
    expect(formatMoney('GBP', '1234567.89')).toBe('£1,234,567.89');
    expect(formatMoney('CLP', '255000.00')).toBe('$255,000 CLP'); // as Postgres returns a numeric(14,2)
    expect(formatMoney('CLP', '12750000')).toBe('$12,750,000 CLP');
    expect(formatMoney('CLP', '999')).toBe('$999 CLP');
    expect(formatMoney('CLP', '1000')).toBe('$1,000 CLP');
    expect(formatMoney('CLP', '0')).toBe('$0 CLP');
  });

  it('rounds half-up on the decimal digits, exactly, beyond what a float holds', () => {
    expect(roundDecimal('2.675', 2)).toBe('2.68'); // a float has 2.67499999...
    expect(roundDecimal('1.005', 2)).toBe('1.01');
    expect(roundDecimal('0.125', 2)).toBe('0.13');
    expect(roundDecimal('0.124999', 2)).toBe('0.12');
    expect(roundDecimal('9.995', 2)).toBe('10.00');
    expect(roundDecimal('999.5', 0)).toBe('1000');
    expect(roundDecimal('999.49', 0)).toBe('999');
    expect(roundDecimal('0.5', 0)).toBe('1');
    expect(roundDecimal('12', 4)).toBe('12.0000');
    expect(formatMoney('CLP', '123456789012345678901.5')).toBe('$123,456,789,012,345,678,902 CLP');
    expect(formatMoney('GBP', '9007199254740993.005')).toBe('£9,007,199,254,740,993.01'); // 2^53 + 1
    expect(formatRate('1275.00005')).toBe('1275.0001 CLP per GBP');
    expect(formatRate('1187.54321')).toBe('1187.5432 CLP per GBP');
  });

  it('refuses what is not a decimal string', () => {
    for (const bad of ['', '-1', '1e3', '1.', '.5', 'NaN', '1,000']) expect(() => roundDecimal(bad, 2)).toThrow(/not a decimal/);
  });
});
