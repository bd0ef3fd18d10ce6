import { queryOptions, useQuery } from '@tanstack/react-query';
import { Paths, type ReferralList } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/referral/list: the people the user referred, newest first. */
export async function getReferrals(): Promise<ReferralList> {
  return (await api.read<ReferralList>(Paths.referralList)) ?? [];
}

export function referralsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.referralList, queryFn: getReferrals });
}

export function useReferrals() {
  return useQuery(referralsQueryOptions());
}
