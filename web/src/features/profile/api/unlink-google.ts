import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /api/auth/sign-in-methods/google: the linked Google account no longer signs in; the methods are read again. */
export function useUnlinkGoogle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(Routes.identity.unlinkGoogle),
    onSettled: () => { void queryClient.invalidateQueries({ queryKey: queryKeys.signInMethods }); },
  });
}
