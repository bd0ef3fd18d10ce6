import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';

/** POST /api/signup/request: 201 with the verification token (a testing aid), or `{ message }` on failure. */
export function requestSignup(request: BodyOf<typeof Routes.identity.signupRequest>) {
  return call(Routes.identity.signupRequest, { body: request });
}

export function useRequestSignup() {
  return useMutation({ mutationFn: requestSignup });
}
