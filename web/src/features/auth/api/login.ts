import { useMutation } from '@tanstack/react-query';
import { Paths, type LoginRequest, type LoginResponse } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/auth/login: OK starts a session (cookie); otherwise the answer's `message` is shown. */
export function login(credentials: LoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>(Paths.login, credentials);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
