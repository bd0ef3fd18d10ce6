import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';

/** POST /api/auth/forgot-password: the same answer whether or not the email has an account. */
export function requestPasswordReset(request: BodyOf<typeof Routes.identity.forgotPassword>) {
  return call(Routes.identity.forgotPassword, { body: request });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
