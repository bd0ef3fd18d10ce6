import { useMutation } from '@tanstack/react-query';
import { Paths, type SignupVerifyResponse } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/signup/verify with the token from the email (or the 'Check Your Email' screen). */
export function verifySignup(token: string): Promise<SignupVerifyResponse> {
  return api.post<SignupVerifyResponse>(Paths.signupVerify, { token });
}

export function useVerifySignup() {
  return useMutation({ mutationFn: verifySignup });
}
