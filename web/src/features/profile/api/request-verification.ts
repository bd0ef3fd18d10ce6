import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes, type VerificationType } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { ownVerificationRequestsKey } from './id-document.ts';

/**
 * POST /api/users/verification/{type} with an empty body; then the current user is refreshed (spec section 7), and
 * the user's open requests (an ID request now awaits its document).
 */
export function requestVerification(type: VerificationType) {
  return call(Routes.identity.requestVerification, { params: { type } });
}

export function useRequestVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestVerification,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
      await queryClient.invalidateQueries({ queryKey: ownVerificationRequestsKey });
    },
  });
}
