import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes, type VerificationType } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/users/verification/{type} with an empty body; then the current user is refreshed (spec section 7). */
export function requestVerification(type: VerificationType) {
  return call(Routes.identity.requestVerification, { params: { type } });
}

export function useRequestVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestVerification,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
  });
}
