/**
 * Blocking users: whom the signed-in user blocked, block and unblock. A block or unblock changes what the market
 * shows both users, so the market and the requests are read again with the list.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useBlockedUsers(enabled = true) {
  return useQuery({
    queryKey: queryKeys.blockedUsers,
    queryFn: async () => (await read(Routes.exchange.blockedUsers)) ?? [],
    enabled,
  });
}

function useBlockMutation<I>(mutationFn: (input: I) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryKeys.blockedUsers, ...queryKeys.trades].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useBlockUser = () => useBlockMutation((userId: number) => call(Routes.exchange.blockUser, { body: { userId } }));
export const useUnblockUser = () => useBlockMutation((userId: number) => call(Routes.exchange.unblockUser, { params: { userId } }));
