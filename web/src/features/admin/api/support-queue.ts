/** The admins' support queue: the open requests, premium users' first (GET), and resolving one (PUT). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Routes, type SupportResolve } from '@puente/contracts';
import { callWithHeaders, call } from '../../../lib/api-client.ts';
import { queryKeys, type Page } from '../../../lib/query-keys.ts';

export function useSupportQueue(page: Page) {
  return useQuery({
    queryKey: queryKeys.supportQueue(page),
    queryFn: async () => {
      const { data, headers } = await callWithHeaders(Routes.subscription.supportQueue, { query: page });
      return { items: data, total: Number(headers.get('x-total-count') ?? data.length) };
    },
  });
}

export function useResolveSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: SupportResolve & { id: number }) => call(Routes.subscription.resolveSupportRequest, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [Routes.subscription.supportQueue.path] }),
  });
}
