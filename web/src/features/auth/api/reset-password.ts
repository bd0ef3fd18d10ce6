import { useMutation } from '@tanstack/react-query';
import { IdentityPaths, type Message, type ResetPasswordRequest } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/auth/reset-password with the emailed token and the new password (every session is signed out). */
export function resetPassword(request: ResetPasswordRequest): Promise<Message> {
  return api.post<Message>(IdentityPaths.resetPassword, request);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
