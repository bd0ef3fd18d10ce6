import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { ApiError, read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The notification count poll (spec section 9): every 30 s. */
export const NOTIFICATION_COUNT_POLL_MS = 30_000;

/** The unread count, or `available: false` while the notification service does not answer the call (404/503). */
export type NotificationCountReading = { available: true; count: number } | { available: false };

/** GET /api/notifications/count (the browser revalidates it with its ETag: an unchanged count is a 304 it answers from its cache). */
export async function getNotificationCount(): Promise<NotificationCountReading> {
  try {
    const data = await read(Routes.notification.count);
    return data ? { available: true, count: data.count } : { available: false };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 503)) return { available: false };
    throw error;
  }
}

export function notificationCountQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.notificationCount,
    queryFn: getNotificationCount,
    // Polled while the call exists; a missing notification service is not asked again until the next page load.
    refetchInterval: (query) => (query.state.data?.available === false ? false : NOTIFICATION_COUNT_POLL_MS),
  });
}

export function useNotificationCount(enabled: boolean) {
  return useQuery({ ...notificationCountQueryOptions(), enabled });
}
