import { useInfiniteQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { callPage } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const HISTORY_PAGE_SIZE = 20;

/** GET /api/transaction-history, newest first, a page at a time (X-Total-Count says when there is more). */
export function useTransactionHistory() {
  return useInfiniteQuery({
    queryKey: queryKeys.transactionHistory,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => ({
      ...await callPage(Routes.exchange.history, { query: { limit: HISTORY_PAGE_SIZE, offset: pageParam } }),
      offset: pageParam,
    }),
    getNextPageParam: (last) => (last.offset + last.items.length < last.total ? last.offset + last.items.length : undefined),
  });
}
