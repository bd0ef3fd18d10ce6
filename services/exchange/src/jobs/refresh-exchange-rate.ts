import { z } from 'zod';
import { defineJob, type Logger, type Orm } from '@puente/platform';
import { recordRate } from '../domain/exchange-rate.ts';
import type { RateProvider } from '../domain/rate-provider.ts';

export const REFRESH_EXCHANGE_RATE = 'refresh-exchange-rate';
export const REFRESH_EVERY_MS = 15 * 60_000;

export type RefreshOutcome =
  | { outcome: 'stored'; rate: string }
  | { outcome: 'unchanged'; rate: string }
  | { outcome: 'failed'; error: string };

/**
 * Asks the provider for the rate and stores it when it changed. A failing provider is logged as a warning and the
 * last good rate stays (the next scheduled run tries again); only a database failure throws, so the queue retries.
 * The provider is asked outside any transaction: a slow one holds no lock or connection.
 */
export async function refreshExchangeRate(
  deps: { orm: Orm; logger: Pick<Logger, 'info' | 'warn'> }, provider: RateProvider,
): Promise<RefreshOutcome> {
  let rate: string;
  try {
    rate = await provider.currentRate();
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    deps.logger.warn({ source: provider.source, error }, 'exchange rate provider failed; keeping the last rate');
    return { outcome: 'failed', error };
  }
  const stored = await recordRate(deps.orm.em, { rate, source: provider.source, fetchedAt: new Date() });
  if (stored) deps.logger.info({ source: provider.source, rate }, 'exchange rate changed');
  return { outcome: stored ? 'stored' : 'unchanged', rate };
}

/** The job behind the schedule in app.ts (at start, then every 15 minutes). */
export function refreshExchangeRateJob(provider: RateProvider, providerTimeoutMs: number) {
  return defineJob({
    name: REFRESH_EXCHANGE_RATE,
    schema: z.object({}),
    attempts: 3,
    backoffMs: 5_000,
    timeoutMs: providerTimeoutMs + 30_000,
    async handle(_data, { orm, logger }) {
      await refreshExchangeRate({ orm, logger }, provider);
    },
  });
}
