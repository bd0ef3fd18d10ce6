import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fillPath, Routes } from '@puente/contracts';
import { call, callPage } from '../../../lib/api-client.ts';
import { queryKeys, type Page } from '../../../lib/query-keys.ts';

/** GET /api/admin/verification-requests: a page of the requests waiting for review, oldest first, and how many wait. */
export function usePendingVerificationRequests(page: Page) {
  return useQuery({
    queryKey: queryKeys.verificationRequests(page),
    queryFn: () => callPage(Routes.identity.verificationRequests, { query: page }),
  });
}

/**
 * Where an ID request's document opens: through the gateway, with the admin's session cookie (same origin). An image
 * is answered inline, a PDF as a file to save (never rendered in the app's origin).
 */
export const verificationDocumentUrl = (requestId: number) => fillPath(Routes.identity.verificationDocument.path, { id: requestId });

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
    onSettled: () => queryClient.invalidateQueries({ queryKey: [Routes.identity.verificationRequests.path] }),
  });
}
