import { describe, expect, it } from 'vitest';
import { ExchangeLimits } from '@puente/contracts';
import { rateDistance, receiveAmount, requestRefusals, sidesOf } from './money.ts';

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

describe('a request from the viewer\'s side', () => {
  const request = { userId: 9, fromCurrency: 'GBP' as const, amount: 200, exchangeRate: 1290 };

  it('gives the requester the amount to pay and the converted amount to receive', () => {
    expect(sidesOf(request, 9)).toEqual({ role: 'requester', pay: { amount: 200, currency: 'GBP' }, receive: { amount: 258_000, currency: 'CLP' } });
  });

  it('gives a taker, and a visitor, the other way round', () => {
    const taker = { role: 'taker', pay: { amount: 258_000, currency: 'CLP' }, receive: { amount: 200, currency: 'GBP' } };
    expect(sidesOf(request, 7)).toEqual(taker);
    expect(sidesOf(request, null)).toEqual(taker);
    expect(sidesOf({ ...request, fromCurrency: 'CLP', amount: 255_000, exchangeRate: 1275.5 }, 7))
      .toEqual({ role: 'taker', pay: { amount: 199.92, currency: 'GBP' }, receive: { amount: 255_000, currency: 'CLP' } });
  });
});

describe('the rules a request is checked by as it is typed', () => {
  const limits = ExchangeLimits.parse({
    tier: 'free', maxPerExchange: { GBP: 200, CLP: 255_000 }, perDay: 2, perMonth: 10, usedToday: 0, usedThisMonth: 0,
    resetsAt: { day: '2026-05-05T00:00:00.000Z', month: '2026-06-01T00:00:00.000Z' },
  });

  it('says how far a rate is from the market rate, to 1 decimal', () => {
    expect([rateDistance(1300, 1275.5), rateDistance('1200', 1275.5), rateDistance(1275.5, 1275.5), rateDistance(0, 1275.5)]).toEqual([1.9, -5.9, 0, null]);
  });

  it('allows the plan\'s own limit and the band\'s own ends', () => {
    expect(requestRefusals({ fromCurrency: 'GBP', amount: 200, rate: '1403.05', market: 1275.5, limits })).toEqual([]);
    expect(requestRefusals({ fromCurrency: 'CLP', amount: 255_000, rate: '1147.95', market: 1275.5, limits })).toEqual([]);
  });

  it('names each rule that refuses, exactly, in the service\'s order', () => {
    expect(requestRefusals({ fromCurrency: 'GBP', amount: 200.01, rate: 1500, market: 1275.5, limits: { ...limits, usedToday: 2, usedThisMonth: 10 } })).toEqual([
      { rule: 'rateBand', market: '1275.5', low: '1147.9500', high: '1403.0500', by: '96.9500', side: 'above' },
      { rule: 'perExchange', tier: 'free', max: { amount: 200, currency: 'GBP' }, over: { amount: 0.01, currency: 'GBP' } },
      { rule: 'perDay', tier: 'free', used: 2, allowed: 2, resetsAt: '2026-05-05T00:00:00.000Z' },
      { rule: 'perMonth', tier: 'free', used: 10, allowed: 10, resetsAt: '2026-06-01T00:00:00.000Z' },
    ]);
  });
});
