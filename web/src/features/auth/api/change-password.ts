import { useMutation } from '@tanstack/react-query';
import { IdentityPaths, type ChangePasswordRequest, type Message } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/auth/change-password (signed in): the other sessions of the user are signed out. */
export function changePassword(request: ChangePasswordRequest): Promise<Message> {
  return api.post<Message>(IdentityPaths.changePassword, request);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
