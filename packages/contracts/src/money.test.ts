import { describe, expect, it } from 'vitest';
import { convert, moneyString, rateBand, roundDecimal, within } from './money.ts';

describe('money', () => {
  it('rounds decimal strings half-up on their digits', () => {
    expect(['4.35', '4.25', '4.05', '4.3333', '5', '0.04', '0.05', '1187.54325'].map((v) => roundDecimal(v, 1)))
      .toEqual(['4.4', '4.3', '4.1', '4.3', '5.0', '0.0', '0.1', '1187.5']);
    expect(roundDecimal('2.675', 2)).toBe('2.68'); // (2.675).toFixed(2) is '2.67'
    expect(roundDecimal('254999.5', 0)).toBe('255000');
  });

  it('converts GBP to CLP by multiplying, rounding half-up to whole pesos', () => {
    expect(convert('GBP', '200.00', '1275.0000')).toBe('255000');
    expect(convert('GBP', '0.01', '1275.5000')).toBe('13'); // 12.755 → 13
    expect(convert('GBP', '1.00', '1187.5000')).toBe('1188'); // exactly half: up
    expect(convert('GBP', '1.00', '1187.4999')).toBe('1187');
    expect(convert('GBP', '10000.00', '1275.0001')).toBe('12750001');
  });

  it('converts CLP to GBP by dividing, rounding half-up to pence', () => {
    expect(convert('CLP', '255000', '1275.0000')).toBe('200.00');
    expect(convert('CLP', '1000', '1275.0000')).toBe('0.78'); // 0.784313… → 0.78
    expect(convert('CLP', '6375', '1275.0000')).toBe('5.00');
    expect(convert('CLP', '19', '1000.0000')).toBe('0.02'); // 0.019 → 0.02
    expect(convert('CLP', '15', '1000.0000')).toBe('0.02'); // 0.015 exactly: up (a float would give 0.01)
    expect(convert('CLP', '1', '3.0000')).toBe('0.33');
  });

  it('is exact where floats are not', () => {
    // 0.1 + 0.2 style noise: 1.15 × 1000 is 1149.9999999999998 as doubles.
    expect(convert('GBP', '1.15', '1000.0000')).toBe('1150');
    expect(moneyString('GBP', '1.005')).toBe('1.01'); // (1.005).toFixed(2) is '1.00'
    expect(moneyString('CLP', 254999.5)).toBe('255000');
  });

  it('computes the ±10 % band rounded inwards and checks a rate against it', () => {
    expect(rateBand('1275.0000', 10)).toEqual({ low: '1147.5000', high: '1402.5000' });
    expect(rateBand('1187.5433', 10)).toEqual({ low: '1068.7890', high: '1306.2976' }); // 1068.78897, 1306.29763
    expect(within(1147.5, '1147.5000', '1402.5000')).toBe(true);
    expect(within(1147.4999, '1147.5000', '1402.5000')).toBe(false);
    expect(within('1402.5001', '1147.5000', '1402.5000')).toBe(false);
  });
});
