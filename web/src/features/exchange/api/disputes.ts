/** A match's dispute: reading it (its parties) and opening one on a confirmed match. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type DisputeCreate } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { useIdempotencyKey } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { refreshTrades } from './requests.ts';

/** The dispute of a match that has one (the match view says so), with the reason and the statement. */
export function useMatchDispute(matchId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.matchDispute(matchId ?? 0),
    queryFn: () => call(Routes.exchange.matchDispute, { params: { id: matchId! } }),
    enabled: matchId !== undefined,
  });
}

export function useOpenDispute() {
  const queryClient = useQueryClient();
  const idempotent = useIdempotencyKey();
  return useMutation({
    mutationFn: ({ matchId, ...body }: DisputeCreate & { matchId: number }) =>
      idempotent.send({ matchId, ...body }, (idempotencyKey) => call(Routes.exchange.openDispute, { params: { id: matchId }, body, idempotencyKey })),
    onSuccess: (dispute) => Promise.all([
      refreshTrades(queryClient),
      queryClient.invalidateQueries({ queryKey: queryKeys.matchDispute(dispute.matchId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.chatMessages(dispute.matchId) }),
    ]),
  });
}
