import { useMutation } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';

/** POST /api/auth/change-password (signed in): the other sessions of the user are signed out. */
export function changePassword(request: BodyOf<typeof Routes.identity.changePassword>) {
  return call(Routes.identity.changePassword, { body: request });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
