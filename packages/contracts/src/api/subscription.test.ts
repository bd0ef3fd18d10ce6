import { describe, expect, it } from 'vitest';
import { CardMessages, TestCheckoutConfirm, cardExpired, parseCardExpiry } from './index.ts';

describe('a card expiry', () => {
  it('reads MM/YY and MM/YYYY, spaces around the slash allowed, and MMYY without it', () => {
    expect(['12/34', '1/30', ' 03 / 2027 ', '1230', '042031'].map(parseCardExpiry))
      .toEqual([{ month: 12, year: 2034 }, { month: 1, year: 2030 }, { month: 3, year: 2027 }, { month: 12, year: 2030 }, { month: 4, year: 2031 }]);
    expect(['', '13/30', '00/30', '130', '1330', '12/3', 'ab/cd'].map(parseCardExpiry)).toEqual([null, null, null, null, null, null, null]);
  });

  it('is good until the end of its month', () => {
    const now = new Date('2026-03-31T23:59:00.000Z');
    expect(cardExpired({ month: 3, year: 2026 }, now)).toBe(false);
    expect(cardExpired({ month: 2, year: 2026 }, now)).toBe(true);
    expect(cardExpired({ month: 12, year: 2025 }, now)).toBe(true);
    expect(cardExpired({ month: 1, year: 2027 }, now)).toBe(false);
  });

  it('is optional in the test checkout, and refused there when it is not MM/YY', () => {
    expect(TestCheckoutConfirm.safeParse({ clientSecret: 's', cardNumber: '4242424242424242' }).success).toBe(true);
    const bad = TestCheckoutConfirm.safeParse({ clientSecret: 's', cardNumber: '4242424242424242', expiry: '13/30' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['expiry', CardMessages.expiryInvalid]]);
  });
});
