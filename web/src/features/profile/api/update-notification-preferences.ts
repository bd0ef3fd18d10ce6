import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';
import { notificationPreferencesKey } from './get-notification-preferences.ts';

/** PUT /api/notifications/preferences: turns the email digest on or off; answers the preference as stored. */
export function updateNotificationPreferences(preferences: BodyOf<typeof Routes.notification.updatePreferences>) {
  return call(Routes.notification.updatePreferences, { body: preferences });
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (preferences) => queryClient.setQueryData(notificationPreferencesKey, preferences),
  });
}
