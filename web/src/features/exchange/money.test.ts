import { describe, expect, it } from 'vitest';
import { receiveAmount } from './money.ts';

describe('the receive amount', () => {
  it('multiplies GBP by the rate, rounding half-up to whole pesos', () => {
    expect(receiveAmount('GBP', 100, 1275.5)).toBe(127_550);
    expect(receiveAmount('GBP', 0.01, '1275.5')).toBe(13); // 12.755 → 13
    expect(receiveAmount('GBP', 1.1, 3)).toBe(3); // 3.3000000000000003 as floats; exactly 3.3 → 3
  });

  it('divides CLP by the rate, rounding half-up to pence', () => {
    expect(receiveAmount('CLP', 127_550, 1275.5)).toBe(100);
    expect(receiveAmount('CLP', 1000, '1275.5')).toBe(0.78); // 0.78401…
    expect(receiveAmount('CLP', 5, 1000)).toBe(0.01); // 0.005 → 0.01
  });

  it('is nothing until the amount and the rate are positive', () => {
    expect(receiveAmount('GBP', 0, 1275)).toBeNull();
    expect(receiveAmount('GBP', Number.NaN, 1275)).toBeNull();
    expect(receiveAmount('CLP', 100, '')).toBeNull();
  });
});
