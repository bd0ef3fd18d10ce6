/**
 * Exchange: exchange requests, matches, the exchange rate and transaction history. Owns schema `exchange`.
 * Built so far: the GBP→CLP rate (GET /api/exchange-rate), refreshed from its provider by a job and kept as a history.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { blankAsUnset, defineService } from '@puente/platform';
import { ExchangeRateEntrySchema, seedRate } from './domain/exchange-rate.ts';
import { fixedRateProvider, httpRateProvider, type RateProvider } from './domain/rate-provider.ts';
import { toRate } from './domain/rate-value.ts';
import { exchangeRateRoutes } from './routes/exchange-rate.ts';
import { REFRESH_EVERY_MS, REFRESH_EXCHANGE_RATE, refreshExchangeRateJob } from './jobs/refresh-exchange-rate.ts';
import { consumers } from './events/consumers.ts';

const setting = blankAsUnset;

const FIXED_MESSAGE = 'EXCHANGE_RATE_FIXED must be a positive number of CLP per GBP with at most 4 decimals, e.g. 1275.0000';
const TIMEOUT_MESSAGE = 'EXCHANGE_RATE_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000';

/** The exchange service's settings (besides the service settings every process reads). */
export const ExchangeSettings = z.object({
  /** The rate when no provider is set, and the one stored at the very first start: £200 = 255,000 CLP. */
  EXCHANGE_RATE_FIXED: setting(z.string().trim().regex(/^(?=.*[1-9])\d{1,8}(\.\d{1,4})?$/, FIXED_MESSAGE)
    .transform(toRate).default('1275.0000')),
  // Rates move money: plain http only to a provider on this machine (a local fake), as GOOGLE_ISSUER.
  EXCHANGE_RATE_URL: setting(z.url({ protocol: /^https?$/, abort: true, error: 'EXCHANGE_RATE_URL must be an http(s) URL' }).refine(
    (u) => u.startsWith('https:') || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|\?|$)/i.test(u),
    'EXCHANGE_RATE_URL must be an https:// URL (http:// only for localhost or 127.0.0.1)',
  ).optional()),
  EXCHANGE_RATE_JSON_PATH: setting(z.string().trim().regex(/^[\w$-]+(\.[\w$-]+)*$/,
    'EXCHANGE_RATE_JSON_PATH must be dot-separated keys to the rate in the answer, e.g. rates.CLP').optional()),
  EXCHANGE_RATE_TIMEOUT_MS: setting(z.coerce.number({ error: TIMEOUT_MESSAGE }).int(TIMEOUT_MESSAGE)
    .min(100, TIMEOUT_MESSAGE).max(60_000, TIMEOUT_MESSAGE).default(5_000)),
}).refine((s) => !s.EXCHANGE_RATE_URL || s.EXCHANGE_RATE_JSON_PATH, {
  message: 'EXCHANGE_RATE_JSON_PATH is required with EXCHANGE_RATE_URL (e.g. rates.CLP)', path: ['EXCHANGE_RATE_JSON_PATH'],
});
export type ExchangeSettings = z.infer<typeof ExchangeSettings>;

/** The HTTP provider when a URL is set, else the fixed rate. */
export function rateProviderFrom(settings: ExchangeSettings): RateProvider {
  const { EXCHANGE_RATE_URL: url, EXCHANGE_RATE_JSON_PATH: jsonPath } = settings;
  return url && jsonPath
    ? httpRateProvider({ url, jsonPath, timeoutMs: settings.EXCHANGE_RATE_TIMEOUT_MS })
    : fixedRateProvider(settings.EXCHANGE_RATE_FIXED);
}

export function exchangeService(settings: ExchangeSettings) {
  const provider = rateProviderFrom(settings);
  return defineService({
    name: 'exchange',
    entities: [ExchangeRateEntrySchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    jobs: [refreshExchangeRateJob(provider, settings.EXCHANGE_RATE_TIMEOUT_MS)],
    schedules: [{ job: REFRESH_EXCHANGE_RATE, everyMs: REFRESH_EVERY_MS, schedulerId: REFRESH_EXCHANGE_RATE }],
    async onStart({ orm, logger }) {
      // The very first start stores the fixed rate, so the route has a rate before any provider has answered.
      const seeded = await seedRate(orm.em, { rate: settings.EXCHANGE_RATE_FIXED, source: 'fixed', fetchedAt: new Date() });
      if (seeded) logger.info({ rate: settings.EXCHANGE_RATE_FIXED }, 'no exchange rate stored yet: stored the fixed rate');
    },
    async routes(app) {
      await app.register(exchangeRateRoutes);
    },
  });
}
