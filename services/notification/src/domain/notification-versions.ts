/**
 * Which of the notification service's changes move a user's polled list and count (NotificationVersions.user in
 * @puente/contracts: the ETag of both). A stored notification is announced (notificationCreated); reading and
 * removing them are local changes: no other service hears of them. The platform bumps the keys once committed.
 */
import { NotificationVersions } from '@puente/contracts';
import { localChanges, type VersionTable } from '@puente/platform';

type NotificationChanges = {
  /** Some of the user's notifications were marked read. */
  notificationsRead: { userId: number };
  /** Some of these users' notifications were deleted (the purge of old read ones). */
  notificationsRemoved: { userIds: number[] };
};

export const local = localChanges<NotificationChanges>();

export const notificationVersions: VersionTable<NotificationChanges> = {
  notificationCreated: ({ userId }) => [NotificationVersions.user(userId)],
  // A deleted account's notifications go with it (domain/personal-data.ts).
  userDeleted: ({ userId }) => [NotificationVersions.user(userId)],
  local: {
    notificationsRead: ({ userId }) => [NotificationVersions.user(userId)],
    // Only read ones are purged: the count stays, but it shares the list's version.
    notificationsRemoved: ({ userIds }) => userIds.map(NotificationVersions.user),
  },
};
