/**
 * The readings a trader's record is made of, shared by every screen that shows someone's record: their public view
 * (GET /api/users/{id}) and their dispute outcomes. Here rather than in a feature because shared components may not
 * import features; the keys are the ones the features use, so both read one cache entry.
 */
import { useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, read } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export function usePublicUser(userId: number) {
  return useQuery({
    queryKey: queryKeys.user(userId),
    queryFn: () => read(Routes.identity.user, { params: { id: userId } }),
    staleTime: 5 * 60_000,
  });
}

export function useTraderDisputeOutcomes(userId: number) {
  return useQuery({
    queryKey: queryKeys.disputeOutcomes(userId),
    queryFn: () => call(Routes.exchange.disputeOutcomes, { params: { id: userId } }),
    staleTime: 5 * 60_000,
  });
}
