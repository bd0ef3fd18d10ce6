import { describe, expect, it } from 'vitest';
import { formatDecimal, formatMoney, formatPlanAmount, formatRate, formatWholeNumber } from './money-format.ts';

describe('money formatting', () => {
  it('writes GBP as £ with 2 decimals: thousands with commas in English, with dots in Chile', () => {
    expect(formatMoney('GBP', '1234.50', 'en')).toBe('£1,234.50');
    expect(formatMoney('GBP', '1234.50', 'es-CL')).toBe('£1.234,50');
    expect(formatMoney('GBP', 200, 'en')).toBe('£200.00');
    expect(formatMoney('GBP', 9.99, 'es-CL')).toBe('£9,99');
    expect(formatMoney('GBP', '0.5', 'en')).toBe('£0.50');
    expect(formatMoney('GBP', '10000.00', 'en')).toBe('£10,000.00');
    expect(formatMoney('GBP', '1234567.89', 'en')).toBe('£1,234,567.89');
  });

  it('writes CLP as $ in whole pesos: then CLP in English (the spec), as Chile does in Spanish', () => {
    expect(formatMoney('CLP', '255000', 'en')).toBe('$255,000 CLP');
    expect(formatMoney('CLP', '255000', 'es-CL')).toBe('$255.000');
    expect(formatMoney('CLP', '255000.00', 'en')).toBe('$255,000 CLP'); // as Postgres returns a numeric(14,2)
    expect(formatMoney('CLP', 12_750_000, 'en')).toBe('$12,750,000 CLP');
    expect(formatMoney('CLP', 12_750_000, 'es-CL')).toBe('$12.750.000');
    expect(formatMoney('CLP', '999', 'en')).toBe('$999 CLP');
    expect(formatMoney('CLP', '1000', 'en')).toBe('$1,000 CLP');
    expect(formatMoney('CLP', '1000', 'es-CL')).toBe('$1.000');
  });

  it('writes zero', () => {
    expect(formatMoney('GBP', 0, 'en')).toBe('£0.00');
    expect(formatMoney('GBP', '0', 'es-CL')).toBe('£0,00');
    expect(formatMoney('CLP', 0, 'en')).toBe('$0 CLP');
    expect(formatMoney('CLP', '0.00', 'es-CL')).toBe('$0');
    expect(formatMoney('GBP', '-0.001', 'en')).toBe('£0.00'); // no '-0'
    expect(formatPlanAmount('GBP', 0, 'en')).toBe('£0');
    expect(formatWholeNumber(0, 'es-CL')).toBe('0');
  });

  it('rounds half-up on the decimal digits, exactly, where a float would not', () => {
    expect(formatMoney('GBP', '2.675', 'en')).toBe('£2.68'); // (2.675).toFixed(2) is '2.67'
    expect(formatMoney('GBP', 1.005, 'en')).toBe('£1.01'); // read as its shortest decimal, '1.005'
    expect(formatMoney('GBP', 0.005, 'es-CL')).toBe('£0,01');
    expect(formatMoney('GBP', '0.125', 'en')).toBe('£0.13');
    expect(formatMoney('GBP', '0.124999', 'en')).toBe('£0.12');
    expect(formatMoney('GBP', '9.995', 'en')).toBe('£10.00');
    expect(formatMoney('CLP', '999.5', 'en')).toBe('$1,000 CLP');
    expect(formatMoney('CLP', '999.49', 'en')).toBe('$999 CLP');
    expect(formatMoney('CLP', 593_771.6, 'es-CL')).toBe('$593.772');
    expect(formatMoney('CLP', 254_999.5, 'es-CL')).toBe('$255.000');
    expect(formatMoney('CLP', '0.5', 'en')).toBe('$1 CLP');
    expect(formatRate('1275.00005', 'en')).toBe('1275.0001');
    expect(formatRate('1187.54325', 'es-CL')).toBe('1.187,5433'); // (1187.54325).toFixed(4) is '1187.5432'
    expect(formatDecimal(4.25, 1, 'en')).toBe('4.3');
    expect(formatDecimal('4.35', 1, 'es-CL')).toBe('4,4');
    expect(formatWholeNumber('12749999.5', 'en')).toBe('12,750,000');
  });

  it('prints big amounts to the last digit, beyond what a float holds', () => {
    expect(formatMoney('CLP', '123456789012345678901.5', 'en')).toBe('$123,456,789,012,345,678,902 CLP');
    expect(formatMoney('CLP', '123456789012345678901.5', 'es-CL')).toBe('$123.456.789.012.345.678.902');
    expect(formatMoney('GBP', '9007199254740993.005', 'en')).toBe('£9,007,199,254,740,993.01'); // 2^53 + 1
    expect(formatMoney('GBP', '9007199254740993.005', 'es-CL')).toBe('£9.007.199.254.740.993,01');
    expect(formatMoney('CLP', 1e21, 'en')).toBe('$1,000,000,000,000,000,000,000 CLP'); // String(1e21) is '1e+21'
    expect(formatWholeNumber('98765432109876543210', 'es-CL')).toBe('98.765.432.109.876.543.210');
  });

  it('writes plan figures as the plan table does: pounds without pence when there are none, pesos then CLP', () => {
    expect(formatPlanAmount('GBP', 200, 'en')).toBe('£200');
    expect(formatPlanAmount('GBP', 10_000, 'en')).toBe('£10,000');
    expect(formatPlanAmount('GBP', 10_000, 'es-CL')).toBe('£10.000');
    expect(formatPlanAmount('GBP', 9.99, 'en')).toBe('£9.99');
    expect(formatPlanAmount('GBP', '9.99', 'es-CL')).toBe('£9,99');
    expect(formatPlanAmount('GBP', '199.999', 'en')).toBe('£200');
    expect(formatPlanAmount('CLP', 255_000, 'en')).toBe('255,000 CLP');
    expect(formatPlanAmount('CLP', 12_750_000, 'es-CL')).toBe('12.750.000 CLP');
  });

  it('writes rates with 4 decimals, not grouped in English (as the spec writes them), grouped in Chile', () => {
    expect(formatRate('1275', 'en')).toBe('1275.0000');
    expect(formatRate(1187.54321, 'en')).toBe('1187.5432');
    expect(formatRate(1187.5, 'es-CL')).toBe('1.187,5000');
    expect(formatRate('12345.6789', 'en')).toBe('12345.6789');
  });

  it('writes whole numbers and decimals with the locale marks', () => {
    expect(formatWholeNumber(12_750_000, 'en')).toBe('12,750,000');
    expect(formatWholeNumber(12_750_000, 'es-CL')).toBe('12.750.000');
    expect(formatWholeNumber(1000, 'es-CL')).toBe('1.000');
    expect(formatDecimal(1234.5, 1, 'en')).toBe('1,234.5');
    expect(formatDecimal(1234.5, 1, 'es-CL', { grouping: false })).toBe('1234,5');
    expect(formatDecimal(4, 1, 'en')).toBe('4.0');
  });

  it('puts the sign before the symbol (amounts are never negative, an axis may be)', () => {
    expect(formatMoney('GBP', -5, 'en')).toBe('-£5.00');
    expect(formatMoney('CLP', '-1500', 'en')).toBe('-$1,500 CLP');
    expect(formatMoney('CLP', '-1500', 'es-CL')).toBe('-$1.500');
    expect(formatWholeNumber(-1500, 'en')).toBe('-1,500');
  });

  it('supports only GBP and CLP, and refuses what is not a decimal', () => {
    expect(() => formatMoney('USD' as never, 1, 'en')).toThrow('Unsupported currency: USD');
    expect(() => formatPlanAmount('USD' as never, 1, 'en')).toThrow('Unsupported currency: USD');
    for (const bad of ['', '1e3', '1.', '.5', 'NaN', '1,000', ' 1', '+1']) expect(() => formatMoney('GBP', bad, 'en')).toThrow(/not a decimal/);
    for (const bad of [Number.NaN, Infinity]) expect(() => formatMoney('CLP', bad, 'en')).toThrow(/not a decimal/);
  });
});
