import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/analytics/me: the premium user's own figures (403 `premium_required` on the free plan). */
export const getAnalytics = () => call(Routes.exchange.analytics);

export const analyticsQueryOptions = () => queryOptions({ queryKey: queryKeys.analytics, queryFn: getAnalytics });

export const useAnalytics = () => useQuery(analyticsQueryOptions());
