import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';
import { queryKeys, type Period } from '../../../lib/query-keys.ts';

/** GET /api/admin/attempts-per-day?from&to: sign-up and login attempts per UTC day by status, every day of the period. */
export async function getAttemptsPerDay(period: Period) {
  return (await read(Routes.audit.attemptsPerDay, { query: { ...period } })) ?? [];
}

/** GET /api/admin/exchange-funnel?from&to: the requests posted in the period, and how many were matched, confirmed, completed. */
export async function getExchangeFunnel(period: Period) {
  return read(Routes.exchange.funnel, { query: { ...period } });
}

export function attemptsPerDayQueryOptions(period: Period) {
  return queryOptions({ queryKey: queryKeys.attemptsPerDay(period), queryFn: () => getAttemptsPerDay(period) });
}

export function exchangeFunnelQueryOptions(period: Period) {
  return queryOptions({ queryKey: queryKeys.exchangeFunnel(period), queryFn: () => getExchangeFunnel(period) });
}

export function useAttemptsPerDay(period: Period) {
  return useQuery(attemptsPerDayQueryOptions(period));
}

export function useExchangeFunnel(period: Period) {
  return useQuery(exchangeFunnelQueryOptions(period));
}
