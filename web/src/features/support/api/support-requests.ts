/** The signed-in user's support requests: write one, read their own (GET/POST /api/support-requests). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type SupportRequestCreate } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { useIdempotencyKey } from '../../../lib/idempotency.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const FIRST_PAGE = { limit: 50, offset: 0 };

export function useMySupportRequests() {
  return useQuery({ queryKey: queryKeys.mySupportRequests(FIRST_PAGE), queryFn: () => call(Routes.subscription.mySupportRequests, { query: FIRST_PAGE }) });
}

export function useCreateSupportRequest() {
  const queryClient = useQueryClient();
  const idempotent = useIdempotencyKey();
  return useMutation({
    mutationFn: (body: SupportRequestCreate) =>
      idempotent.send(body, (idempotencyKey) => call(Routes.subscription.createSupportRequest, { body, idempotencyKey })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [Routes.subscription.mySupportRequests.path] }),
  });
}
