/**
 * The caller's notifications, newest first, refreshed every 3 s while signed in (spec sections 7 and 9; the browser
 * revalidates with the ETag, so an unchanged poll is a 304), and marking them read.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS_SHOWN, Routes, type Notification } from '@puente/contracts';
import { call, read } from '../../../lib/api-client.ts';
import { pollEvery } from '../../../lib/polling.ts';
import { DATA_REFRESH_MS } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';


export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.notifications,
    queryFn: async (): Promise<Notification[]> => (await read(Routes.notification.list, { query: { limit: NOTIFICATIONS_SHOWN } })) ?? [],
    refetchInterval: pollEvery(DATA_REFRESH_MS),
    enabled,
  });
}

/** A notification that arrived on the live channel: listed at once, the count asked again. */
export function addNotification(queryClient: QueryClient, notification: Notification) {
  queryClient.setQueryData<Notification[]>(queryKeys.notifications, (list) =>
    [notification, ...(list ?? []).filter((n) => n.id !== notification.id)].slice(0, NOTIFICATIONS_SHOWN));
  return queryClient.invalidateQueries({ queryKey: queryKeys.notificationCount });
}

function useNotificationMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryKeys.notifications, queryKeys.notificationCount].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useMarkRead = () => useNotificationMutation((id: number) => call(Routes.notification.read, { params: { id } }));
export const useMarkAllRead = () => useNotificationMutation(() => call(Routes.notification.readAll));
