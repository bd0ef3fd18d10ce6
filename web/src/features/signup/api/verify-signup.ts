import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';

/** POST /api/signup/verify with the token from the email (or the 'Check Your Email' screen). */
export function verifySignup(token: string) {
  return call(Routes.identity.signupVerify, { body: { token } });
}

export function useVerifySignup() {
  return useMutation({ mutationFn: verifySignup });
}
