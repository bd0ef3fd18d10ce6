import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { callPage } from '../../../lib/api-client.ts';
import { queryKeys, type Page } from '../../../lib/query-keys.ts';

/** GET /api/referral/list: a page of the people the user referred, newest first, and how many there are in all. */
export function useReferrals(page: Page) {
  return useQuery({
    queryKey: queryKeys.referralList(page),
    queryFn: () => callPage(Routes.identity.referralList, { query: page }),
    // Turning a page keeps the one shown (and the stat's total) until the next arrives.
    placeholderData: keepPreviousData,
  });
}
