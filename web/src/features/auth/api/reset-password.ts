import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';

/** POST /api/auth/reset-password with the emailed token and the new password (every session is signed out). */
export function resetPassword(request: BodyOf<typeof Routes.identity.resetPassword>) {
  return call(Routes.identity.resetPassword, { body: request });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
