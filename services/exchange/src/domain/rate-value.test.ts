import { describe, expect, it } from 'vitest';
import { RateValueError, rateNumber, toRate } from './rate-value.ts';

describe('toRate: exact rounding to 4 decimals', () => {
  it('rounds half away from zero on the decimal digits', () => {
    expect(toRate('1187.54325')).toBe('1187.5433');
    expect(toRate('1187.54324')).toBe('1187.5432');
    expect(toRate('1187.543249999')).toBe('1187.5432');
    expect(toRate('1187.54335')).toBe('1187.5434');
    expect(toRate('1187.99995')).toBe('1188.0000');
    expect(toRate('0.00015')).toBe('0.0002');
  });

  it('gets right what float rounding gets wrong', () => {
    // The doubles nearest these sit just below the half: float rounding goes down, the decimal goes up.
    expect((1187.54325).toFixed(4)).toBe('1187.5432');
    expect(Math.round(0.00015 * 1e4) / 1e4).toBe(0.0001);
    expect(toRate('1187.54325')).toBe('1187.5433');
    expect(toRate('0.00015')).toBe('0.0002');
  });

  it('pads to 4 decimals and reads exponents and surrounding spaces', () => {
    expect(toRate('1275')).toBe('1275.0000');
    expect(toRate('1275.5')).toBe('1275.5000');
    expect(toRate(' 1187.5432 ')).toBe('1187.5432');
    expect(toRate('1.18754325e3')).toBe('1187.5433');
    expect(toRate('118754325E-5')).toBe('1187.5433');
    expect(toRate('0.5')).toBe('0.5000');
    expect(toRate('99999999.9999')).toBe('99999999.9999');
  });

  it('refuses what is not a positive, finite rate that fits numeric(12,4)', () => {
    const refusal = (literal: string) => {
      try {
        toRate(literal);
        return 'accepted';
      } catch (err) {
        expect(err).toBeInstanceOf(RateValueError);
        return (err as Error).message;
      }
    };
    expect(refusal('-1187.5')).toBe('not positive: -1187.5');
    expect(refusal('0')).toBe('not positive: 0');
    expect(refusal('-0')).toBe('not positive: -0');
    expect(refusal('0.00004')).toBe('not positive: 0.00004');
    expect(refusal('1e400')).toBe('out of range: 1e400');
    expect(refusal('1e-999999999')).toBe('out of range: 1e-999999999');
    expect(refusal('99999999.99995')).toBe('too large: 99999999.99995');
    expect(refusal('100000000')).toBe('too large: 100000000');
    for (const text of ['', 'abc', 'NaN', 'Infinity', '1,187.5', '01187.5', '+1187.5', '1187.', '.5', '0x10', '1187.5 CLP']) {
      expect([text, refusal(text)]).toEqual([text, `not a number: ${text.trim()}`]);
    }
    expect(refusal('9'.repeat(100))).toBe(`too large: ${'9'.repeat(40)}…`);
  });
});

describe('rateNumber', () => {
  it('answers the stored decimal as the same JSON number', () => {
    for (const rate of ['1275.0000', '1187.5433', '0.0001', '99999999.9999']) {
      expect(JSON.stringify(rateNumber(rate))).toBe(rate.replace(/\.?0+$/, ''));
    }
  });
});
