/**
 * What the notification service holds of a user, for their data download (their notifications and preference), and
 * their account's deletion: all of it goes, they are remembered as deleted (domain/deleted-accounts.ts), and their
 * accounts leave the fan-out at once, before the accounts service's removals arrive.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationPersonalData } from '@puente/contracts';
import { AccountHolder } from './account-holders.ts';
import { DeletedAccount } from './deleted-accounts.ts';
import { Notification, notificationView } from './notification.ts';
import { NotificationPreference, wantsEmailDigest } from './preferences.ts';

export async function personalDataOf(em: EntityManager, userId: number): Promise<NotificationPersonalData> {
  const notifications = await em.find(Notification, { userId }, { orderBy: { id: 'desc' } });
  return { notifications: notifications.map(notificationView), preferences: { emailDigest: await wantsEmailDigest(em, userId) } };
}

/** In the caller's transaction, as of `at` (the deletion). */
export async function eraseUser(em: EntityManager, userId: number, at: Date): Promise<void> {
  await em.upsert(DeletedAccount, { userId, deletedAt: at }, { onConflictAction: 'ignore' });
  await em.nativeDelete(Notification, { userId });
  await em.nativeDelete(NotificationPreference, { userId });
  await em.nativeUpdate(AccountHolder, { userId }, { removed: true });
}
