/** Ratings of a match (who has rated whom) and submitting one. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';
import { useIdempotencyKey } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useMatchRatings(matchId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.ratingsForMatch(matchId ?? 0),
    queryFn: () => call(Routes.rating.forMatch, { params: { exchangeMatchId: matchId! } }),
    enabled: matchId !== undefined,
  });
}

export function useSubmitRating() {
  const queryClient = useQueryClient();
  const idempotent = useIdempotencyKey();
  return useMutation({
    mutationFn: (body: BodyOf<typeof Routes.rating.create>) =>
      idempotent.send(body, (idempotencyKey) => call(Routes.rating.create, { body, idempotencyKey })),
    onSuccess: (_rating, body) => queryClient.invalidateQueries({ queryKey: queryKeys.ratingsForMatch(body.exchangeMatchId) }),
  });
}
