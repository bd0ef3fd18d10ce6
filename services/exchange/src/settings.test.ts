import { describe, expect, it } from 'vitest';
import { ExchangeSettings, rateProviderFrom } from './app.ts';

const problems = (env: Record<string, string>) =>
  ExchangeSettings.safeParse(env).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('ExchangeSettings', () => {
  it('defaults to the fixed rate the plan limits imply (£200 = 255,000 CLP), no provider, a 5 s timeout, the trade timers', () => {
    const settings = ExchangeSettings.parse({});
    expect(settings).toEqual({
      EXCHANGE_RATE_FIXED: '1275.0000', EXCHANGE_RATE_TIMEOUT_MS: 5000,
      MATCH_APPROVAL_HOURS: 24, COMPLETION_REMINDER_HOURS: [12, 48], REQUEST_EXPIRY_DAYS: 30, PROJECTION_BACKFILL: 'on',
    });
    expect(200 * Number(settings.EXCHANGE_RATE_FIXED)).toBe(255_000);
    expect(rateProviderFrom(settings).source).toBe('fixed');
    // Blank variables (as compose passes unset ones) count as unset.
    expect(ExchangeSettings.parse({ EXCHANGE_RATE_FIXED: ' ', EXCHANGE_RATE_URL: '', EXCHANGE_RATE_JSON_PATH: '', EXCHANGE_RATE_TIMEOUT_MS: '' }))
      .toMatchObject({ EXCHANGE_RATE_FIXED: '1275.0000', EXCHANGE_RATE_URL: undefined, EXCHANGE_RATE_TIMEOUT_MS: 5000 });
  });

  it('reads a fixed rate and an HTTP provider; the provider is named by its origin only', async () => {
    const settings = ExchangeSettings.parse({
      EXCHANGE_RATE_FIXED: '1187.5', EXCHANGE_RATE_URL: 'https://rates.example/v1/latest?base=GBP&key=secret',
      EXCHANGE_RATE_JSON_PATH: 'rates.CLP', EXCHANGE_RATE_TIMEOUT_MS: '2500',
    });
    expect(settings.EXCHANGE_RATE_FIXED).toBe('1187.5000');
    expect(settings.EXCHANGE_RATE_TIMEOUT_MS).toBe(2500);
    expect(rateProviderFrom(settings).source).toBe('https://rates.example');
    expect(await rateProviderFrom(ExchangeSettings.parse({ EXCHANGE_RATE_FIXED: '1187.5' })).currentRate()).toBe('1187.5000');
  });

  it('refuses bad values, naming the variable', () => {
    const fixed = 'EXCHANGE_RATE_FIXED: EXCHANGE_RATE_FIXED must be a positive number of CLP per GBP with at most 4 decimals, e.g. 1275.0000';
    for (const value of ['0', '0.0000', '-5', '1.23456', 'abc', '1e3', '123456789']) {
      expect([value, problems({ EXCHANGE_RATE_FIXED: value })]).toEqual([value, [fixed]]);
    }
    expect(problems({ EXCHANGE_RATE_URL: 'http://rates.example/latest', EXCHANGE_RATE_JSON_PATH: 'rates.CLP' }))
      .toEqual(['EXCHANGE_RATE_URL: EXCHANGE_RATE_URL must be an https:// URL (http:// only for localhost or 127.0.0.1)']);
    expect(problems({ EXCHANGE_RATE_URL: 'ftp://rates.example/latest', EXCHANGE_RATE_JSON_PATH: 'rates.CLP' }))
      .toEqual(['EXCHANGE_RATE_URL: EXCHANGE_RATE_URL must be an http(s) URL']);
    expect(problems({ EXCHANGE_RATE_URL: 'https://rates.example/latest' }))
      .toEqual(['EXCHANGE_RATE_JSON_PATH: EXCHANGE_RATE_JSON_PATH is required with EXCHANGE_RATE_URL (e.g. rates.CLP)']);
    for (const path of ['rates..CLP', '.rates', 'rates CLP']) {
      expect(problems({ EXCHANGE_RATE_JSON_PATH: path }))
        .toEqual(['EXCHANGE_RATE_JSON_PATH: EXCHANGE_RATE_JSON_PATH must be dot-separated keys to the rate in the answer, e.g. rates.CLP']);
    }
    for (const ms of ['x', '99', '60001', '1.5']) {
      expect(problems({ EXCHANGE_RATE_TIMEOUT_MS: ms }))
        .toEqual(['EXCHANGE_RATE_TIMEOUT_MS: EXCHANGE_RATE_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000']);
    }
  });
});
