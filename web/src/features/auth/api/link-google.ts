import { useMutation, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, read, type BodyOf } from '../../../lib/api-client.ts';

/** GET /api/auth/google/link: the account the Google sign-in waits to be linked to, or null when none waits (401). */
export function usePendingGoogleLink() {
  return useQuery({ queryKey: [Routes.identity.pendingGoogleLink.path], queryFn: () => read(Routes.identity.pendingGoogleLink), staleTime: 0 });
}

/** POST /api/auth/google/link: the account's password (and code); the gateway starts the session. */
export function useLinkGoogle() {
  return useMutation({ mutationFn: (body: BodyOf<typeof Routes.identity.linkGoogle>) => call(Routes.identity.linkGoogle, { body }) });
}
