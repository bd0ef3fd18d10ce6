/** The admins' disputes: the queue (GET), one dispute with both parties' history, its chat, resolving it and lifting a suspension. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type DisputeResolve } from '@puente/contracts';
import { call, callPage, read } from '../../../lib/api-client.ts';
import { queryKeys, type Page } from '../../../lib/query-keys.ts';

export function useDisputeQueue(status: 'open' | 'resolved' | undefined, page: Page) {
  return useQuery({
    queryKey: queryKeys.disputeQueue(status, page),
    queryFn: () => callPage(Routes.exchange.disputeQueue, { query: { ...page, ...(status ? { status } : {}) } }),
  });
}

export function useDisputeDetail(id: number) {
  return useQuery({ queryKey: queryKeys.disputeDetail(id), queryFn: () => call(Routes.exchange.disputeDetail, { params: { id } }) });
}

/** The match's chat, as its parties wrote it (admins may read it): the proofs of payment are in it. */
export function useDisputeChat(matchId: number) {
  return useQuery({
    queryKey: queryKeys.chatMessages(matchId),
    queryFn: async () => (await read(Routes.exchange.chatMessages, { params: { id: matchId }, query: { limit: 500 } })) ?? [],
  });
}

function useDisputeMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: [Routes.exchange.disputeQueue.path] }),
      queryClient.invalidateQueries({ queryKey: [Routes.exchange.disputeDetail.path] }),
    ]),
  });
}

export const useResolveDispute = () => useDisputeMutation(({ id, ...body }: DisputeResolve & { id: number }) =>
  call(Routes.exchange.resolveDispute, { params: { id }, body }));

export const useLiftSuspension = () => useDisputeMutation((userId: number) => call(Routes.exchange.liftSuspension, { params: { userId } }));
