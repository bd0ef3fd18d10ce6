import { useMutation } from '@tanstack/react-query';
import { Paths, type SignupRequest, type SignupRequestResponse } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/signup/request: 201 with the verification token (a testing aid), or `{ message }` on failure. */
export function requestSignup(request: SignupRequest): Promise<SignupRequestResponse> {
  return api.post<SignupRequestResponse>(Paths.signupRequest, request);
}

export function useRequestSignup() {
  return useMutation({ mutationFn: requestSignup });
}
