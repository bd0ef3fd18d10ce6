import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/admin/verification-requests: the requests waiting for review, oldest first. */
export async function getPendingVerificationRequests() {
  return (await read(Routes.identity.verificationRequests)) ?? [];
}

export function pendingVerificationRequestsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.verificationRequests, queryFn: getPendingVerificationRequests });
}

export function usePendingVerificationRequests() {
  return useQuery(pendingVerificationRequestsQueryOptions());
}

export type VerificationDecision = 'approve' | 'reject';

const decisions = { approve: Routes.identity.approveVerification, reject: Routes.identity.rejectVerification } as const;

/** POST /api/admin/verification-requests/{id}/approve or /reject: the decided request. */
export function decideVerificationRequest({ id, decision }: { id: number; decision: VerificationDecision }) {
  return call(decisions[decision], { params: { id } });
}

/** Decides a request; the list is read again (a request decided elsewhere meanwhile leaves it too). */
export function useDecideVerificationRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideVerificationRequest,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.verificationRequests }),
  });
}
