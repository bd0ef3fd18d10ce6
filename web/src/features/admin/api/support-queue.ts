/** The admins' support queue: the open requests, premium users' first (GET), who wrote each, and resolving one (PUT). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type SupportResolve } from '@puente/contracts';
import { call, callPage, read } from '../../../lib/api-client.ts';
import { queryKeys, type Page } from '../../../lib/query-keys.ts';

export function useSupportQueue(page: Page) {
  return useQuery({
    queryKey: queryKeys.supportQueue(page),
    queryFn: () => callPage(Routes.subscription.supportQueue, { query: page }),
  });
}

/**
 * The author of a request as an admin sees them (name and email, to answer outside the app too). Read per author
 * rather than carried in the queue: the subscription service keeps no names, and a page holds a handful of authors.
 */
export function useSupportAuthor(userId: number) {
  return useQuery({
    queryKey: queryKeys.user(userId),
    queryFn: () => read(Routes.identity.user, { params: { id: userId } }),
    staleTime: 5 * 60_000,
  });
}

export function useResolveSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: SupportResolve & { id: number }) => call(Routes.subscription.resolveSupportRequest, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [Routes.subscription.supportQueue.path] }),
  });
}
