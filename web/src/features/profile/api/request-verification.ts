import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Paths, fillPath, type VerificationRequestResponse, type VerificationType } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/users/verification/{type} with an empty body; then the current user is refreshed (spec section 7). */
export function requestVerification(type: VerificationType): Promise<VerificationRequestResponse> {
  return api.post<VerificationRequestResponse>(fillPath(Paths.verification, { type }));
}

export function useRequestVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestVerification,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
  });
}
