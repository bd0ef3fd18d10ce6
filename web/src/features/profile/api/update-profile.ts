import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** PATCH /api/auth/user: edit one's own first and last name; answers the current user. */
export function updateProfile(update: BodyOf<typeof Routes.identity.editCurrentUser>) {
  return call(Routes.identity.editCurrentUser, { body: update });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.currentUser, user);
      return queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    },
  });
}
