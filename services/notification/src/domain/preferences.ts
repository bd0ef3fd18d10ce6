import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';

/**
 * A user's notification preference and where their email digest stands. No row is the default: digests on, none
 * sent yet. `digestedThroughId` is the highest notification id already emailed, so no notification is emailed twice.
 */
export const NotificationPreferenceSchema = defineEntity({
  name: 'NotificationPreference',
  tableName: 'notification_preference',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    emailDigest: p.boolean().default(true),
    lastDigestAt: p.datetime().nullable(),
    digestedThroughId: p.integer().default(0),
  },
});
export class NotificationPreference extends NotificationPreferenceSchema.class {}
NotificationPreferenceSchema.setClass(NotificationPreference);

/** Whether the user gets email digests (yes unless they turned them off). */
export async function wantsEmailDigest(em: EntityManager, userId: number): Promise<boolean> {
  const found = await em.findOne(NotificationPreference, { userId }, { fields: ['emailDigest'] });
  return found?.emailDigest ?? true;
}

/** Turns digests on or off, keeping where the user's digest stands. */
export async function setEmailDigest(em: EntityManager, userId: number, emailDigest: boolean): Promise<void> {
  await em.upsert(NotificationPreference, { userId, emailDigest }, { onConflictFields: ['userId'], onConflictMergeFields: ['emailDigest'] });
}
