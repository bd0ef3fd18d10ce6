/**
 * Who is signed in. A user counts as authenticated when GET /api/auth/user returns data (401 reads as null). The
 * current user is fresh for 30 s, never retried, not refetched on window focus, and invalidated after changes.
 * Logging out is shared by the header's button and the /logout page.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Routes, type CurrentUser } from '@puente/contracts';
import { call, read } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

export const CURRENT_USER_STALE_TIME = 30_000;

/** GET /api/auth/user: the signed-in user, or null for a visitor (401). */
export function getCurrentUser() {
  return read(Routes.identity.currentUser);
}

export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.currentUser,
    queryFn: getCurrentUser,
    staleTime: CURRENT_USER_STALE_TIME,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** The signed-in user (null for a visitor); `isLoading` until the first answer. */
export function useCurrentUser(): { user: CurrentUser | null; isLoading: boolean } {
  const query = useQuery(currentUserQueryOptions());
  // A failed read (network, 5xx) counts as not signed in: the public pages stay usable.
  return { user: query.data ?? null, isLoading: query.isPending };
}

/** The signed-in user on pages that are only routed for one (the route guard has checked). */
export function useSignedInUser(): CurrentUser {
  const { user } = useCurrentUser();
  if (!user) throw new Error('useSignedInUser outside a signed-in route');
  return user;
}

export function logout() {
  return call(Routes.gateway.logout);
}

/** The session has ended (a logout, the account's deletion): every cached reading is dropped and the user reads as a visitor. */
export function forgetSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.currentUser[0] });
  queryClient.setQueryData(queryKeys.currentUser, null);
}

/** POST /api/auth/logout, then the session is forgotten. */
export function useLogout(options: { onSuccess?: () => void; onError?: (error: unknown) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      forgetSession(queryClient);
      options.onSuccess?.();
    },
    onError: options.onError,
  });
}
