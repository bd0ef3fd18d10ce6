import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';

/** The preference's query key: its route's path, as every key in lib/query-keys.ts starts. */
export const notificationPreferencesKey = [Routes.notification.preferences.path] as const;

/** GET /api/notifications/preferences: whether the user gets the email digest of unread notifications. */
export function getNotificationPreferences() {
  return read(Routes.notification.preferences);
}

export function notificationPreferencesQueryOptions() {
  return queryOptions({ queryKey: notificationPreferencesKey, queryFn: getNotificationPreferences });
}

export function useNotificationPreferences() {
  return useQuery(notificationPreferencesQueryOptions());
}
