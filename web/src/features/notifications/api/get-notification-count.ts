import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { ApiError, read } from '../../../lib/api-client.ts';
import { askedToWait, nextPollIn } from '../../../lib/polling.ts';
import { DATA_REFRESH_MS } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * The count is read twice (spec section 7): refreshed every 3 s with the other data sets, and polled every 30 s
 * (spec section 9), so the badge keeps up even where the 3 s refresh is not mounted.
 */
export const NOTIFICATION_COUNT_POLL_MS = 30_000;

/** The unread count, or `available: false` while the notification service does not answer the call (404/503). */
export type NotificationCountReading = { available: true; count: number } | { available: false };

/** GET /api/notifications/count (the browser revalidates it with its ETag: an unchanged count is a 304 it answers from its cache). */
export async function getNotificationCount(): Promise<NotificationCountReading> {
  try {
    const data = await read(Routes.notification.count);
    return data ? { available: true, count: data.count } : { available: false };
  } catch (error) {
    // A 503 with a Retry-After is the gateway shedding load, not a missing service: the count is polled again later.
    if (error instanceof ApiError && (error.status === 404 || error.status === 503) && !askedToWait(error)) return { available: false };
    throw error;
  }
}

export function notificationCountQueryOptions(every: number = NOTIFICATION_COUNT_POLL_MS) {
  return queryOptions({
    queryKey: queryKeys.notificationCount,
    queryFn: getNotificationCount,
    // Polled while the call exists; a missing notification service is not asked again until the next page load.
    refetchInterval: (query) => (query.state.data?.available === false ? false : nextPollIn(query, every)),
  });
}

/** Both readings of the count: every 3 s and every 30 s (one request at a time: they share one query). */
export function useNotificationCount(enabled: boolean) {
  useQuery({ ...notificationCountQueryOptions(DATA_REFRESH_MS), enabled });
  return useQuery({ ...notificationCountQueryOptions(), enabled });
}
