/** How a user's resolved disputes ended and the sanctions they received (public, as profiles show them). */
import { useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useDisputeOutcomes(userId: number) {
  return useQuery({
    queryKey: queryKeys.disputeOutcomes(userId),
    queryFn: () => call(Routes.exchange.disputeOutcomes, { params: { id: userId } }),
    staleTime: 5 * 60_000,
  });
}
