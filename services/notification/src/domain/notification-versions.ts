/**
 * Which of the notification service's changes move a user's polled list and unread count (NotificationVersions in
 * @puente/contracts: their ETags). A stored notification is announced (notificationCreated); reading and
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

const both = (userId: number) => [NotificationVersions.list(userId), NotificationVersions.unread(userId)];

export const notificationVersions: VersionTable<NotificationChanges> = {
  notificationCreated: ({ userId }) => both(userId),
  // A deleted account's notifications go with it (domain/personal-data.ts).
  userDeleted: ({ userId }) => both(userId),
  local: {
    notificationsRead: ({ userId }) => both(userId),
    // Only read ones are purged: the unread count stays as it was.
    notificationsRemoved: ({ userIds }) => userIds.map(NotificationVersions.list),
  },
};
