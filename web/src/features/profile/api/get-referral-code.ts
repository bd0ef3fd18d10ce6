import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/referral/code: the signed-in user's own referral code (null for a visitor). */
export function getReferralCode() {
  return read(Routes.identity.referralCode);
}

export function referralCodeQueryOptions() {
  return queryOptions({ queryKey: queryKeys.referralCode, queryFn: getReferralCode });
}

export function useReferralCode(enabled = true) {
  return useQuery({ ...referralCodeQueryOptions(), enabled });
}
