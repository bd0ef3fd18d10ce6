import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { pollEvery } from '../../../lib/polling.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The exchange rate refresh (spec section 9): every 15 minutes. */
export const EXCHANGE_RATE_REFRESH_MS = 900_000;

/** GET /api/exchange-rate: CLP per GBP and when it was last updated. */
export function exchangeRateQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.exchangeRate,
    queryFn: () => call(Routes.exchange.rate),
    refetchInterval: pollEvery(EXCHANGE_RATE_REFRESH_MS),
    staleTime: EXCHANGE_RATE_REFRESH_MS,
  });
}

export function useExchangeRate() {
  return useQuery(exchangeRateQueryOptions());
}

/** GET /api/exchange-requests/limits: the caller's plan limits and today's and this month's usage. */
export function useExchangeLimits(enabled = true) {
  return useQuery({ queryKey: queryKeys.exchangeLimits, queryFn: () => call(Routes.exchange.limits), enabled });
}
