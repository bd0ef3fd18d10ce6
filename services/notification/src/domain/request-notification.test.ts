import { describe, expect, it } from 'vitest';
import { requestNotificationContent } from './request-notification.ts';

// The money and rate formats themselves are tested with the formatter (packages/contracts/src/money-format.test.ts).
describe('the exchange_request notification text', () => {
  it('shows a GBP request as £ with 2 decimals and a CLP request as $ with thousands separators then CLP', () => {
    expect(requestNotificationContent(12, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '500.00', exchangeRate: '1275.0000' }))
      .toBe('New exchange request #12: £500.00 for CLP at 1275.0000 CLP per GBP');
    expect(requestNotificationContent(13, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: '255000', exchangeRate: '1275.0000' }))
      .toBe('New exchange request #13: $255,000 CLP for GBP at 1275.0000 CLP per GBP');
  });

  it('prints the event\'s decimal strings exactly, whatever their decimals, rounding half-up', () => {
    expect(requestNotificationContent(14, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '1234567.885', exchangeRate: '1275.00005' }))
      .toBe('New exchange request #14: £1,234,567.89 for CLP at 1275.0001 CLP per GBP');
    expect(requestNotificationContent(15, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: '123456789012345678901.5', exchangeRate: '1187.54321' }))
      .toBe('New exchange request #15: $123,456,789,012,345,678,902 CLP for GBP at 1187.5432 CLP per GBP');
    expect(requestNotificationContent(16, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '9007199254740993.005', exchangeRate: '1275' }))
      .toBe('New exchange request #16: £9,007,199,254,740,993.01 for CLP at 1275.0000 CLP per GBP'); // 2^53 + 1
  });
});
