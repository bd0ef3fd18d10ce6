import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';

/** POST /api/auth/login/two-factor: the login's second step (the password step's challenge and a code). */
export function loginTwoFactor(body: BodyOf<typeof Routes.identity.loginTwoFactor>) {
  return call(Routes.identity.loginTwoFactor, { body });
}

export function useLoginTwoFactor() {
  return useMutation({ mutationFn: loginTwoFactor });
}
