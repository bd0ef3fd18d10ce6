import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';

/** POST /api/auth/login: OK starts a session (cookie); otherwise the answer's `message` is shown. */
export function login(credentials: BodyOf<typeof Routes.identity.login>) {
  return call(Routes.identity.login, { body: credentials });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
