import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/referral/list: the people the user referred, newest first. */
export async function getReferrals() {
  return (await read(Routes.identity.referralList)) ?? [];
}

export function referralsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.referralList, queryFn: getReferrals });
}

export function useReferrals() {
  return useQuery(referralsQueryOptions());
}
