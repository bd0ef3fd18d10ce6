import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/ratings/user/{userId}: the ratings a user received. */
export async function getUserRatings(userId: number) {
  return (await read(Routes.rating.forUser, { params: { userId } })) ?? [];
}

export function userRatingsQueryOptions(userId: number) {
  return queryOptions({ queryKey: queryKeys.ratingsForUser(userId), queryFn: () => getUserRatings(userId) });
}

export function useUserRatings(userId: number) {
  return useQuery(userRatingsQueryOptions(userId));
}
