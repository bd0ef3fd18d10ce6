import { useMutation } from '@tanstack/react-query';
import { IdentityPaths, type ForgotPasswordResponse } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/auth/forgot-password: the same answer whether or not the email has an account. */
export function requestPasswordReset(email: string): Promise<ForgotPasswordResponse> {
  return api.post<ForgotPasswordResponse>(IdentityPaths.forgotPassword, { email });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
