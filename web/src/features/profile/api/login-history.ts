import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { callPage } from '../../../lib/api-client.ts';

/** The history's query key: its route's path, then the page. */
export const loginHistoryKey = [Routes.audit.ownLoginHistory.path] as const;

/** GET /api/users/me/login-history: a page of the user's own login attempts, newest first, and their total. */
export async function getLoginHistory(page: { limit: number; offset: number }) {
  const { items, total } = await callPage(Routes.audit.ownLoginHistory, { query: page });
  return { attempts: items, total };
}

export function loginHistoryQueryOptions(page: { limit: number; offset: number }) {
  return queryOptions({ queryKey: [...loginHistoryKey, page], queryFn: () => getLoginHistory(page), placeholderData: keepPreviousData });
}

export function useLoginHistory(page: { limit: number; offset: number }) {
  return useQuery(loginHistoryQueryOptions(page));
}
