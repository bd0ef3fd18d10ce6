import { queryOptions, useQuery } from '@tanstack/react-query';
import { Paths, fillPath, type RatingList } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/ratings/user/{userId}: the ratings a user received. */
export async function getUserRatings(userId: number): Promise<RatingList> {
  return (await api.read<RatingList>(fillPath(Paths.ratingsForUser, { userId }))) ?? [];
}

export function userRatingsQueryOptions(userId: number) {
  return queryOptions({ queryKey: queryKeys.ratingsForUser(userId), queryFn: () => getUserRatings(userId) });
}

export function useUserRatings(userId: number) {
  return useQuery(userRatingsQueryOptions(userId));
}
