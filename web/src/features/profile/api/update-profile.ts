import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IdentityPaths, type CurrentUser, type UserProfileUpdate } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** PATCH /api/auth/user: edit one's own first and last name; answers the current user. */
export function updateProfile(update: UserProfileUpdate): Promise<CurrentUser> {
  return api.patch<CurrentUser>(IdentityPaths.editCurrentUser, update);
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
