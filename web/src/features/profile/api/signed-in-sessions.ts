import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, read } from '../../../lib/api-client.ts';

/** The list's query key: its route's path, as every key in lib/query-keys.ts starts. */
export const signedInSessionsKey = [Routes.gateway.sessions.path] as const;

/** GET /api/auth/sessions: the browsers signed in to the user's account, this one first. */
export async function getSignedInSessions() {
  return (await read(Routes.gateway.sessions)) ?? [];
}

export function signedInSessionsQueryOptions() {
  return queryOptions({ queryKey: signedInSessionsKey, queryFn: getSignedInSessions });
}

export function useSignedInSessions() {
  return useQuery(signedInSessionsQueryOptions());
}

/** DELETE /api/auth/sessions/{id}: signs that browser out at once. */
export function revokeSession(id: string) {
  return call(Routes.gateway.revokeSession, { params: { id } });
}

/** The list is read again whatever the answer: a session another tab revoked is gone either way. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: signedInSessionsKey }),
  });
}
