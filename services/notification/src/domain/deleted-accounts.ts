/**
 * Users who deleted their account. Events about their trades may still come (a partner rating them, a match the
 * deletion called off): nobody is notified on a deleted account, so nothing is stored for them, and no digest is
 * emailed to the placeholder address identity keeps in their place.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';

export const DeletedAccountSchema = defineEntity({
  name: 'DeletedAccount',
  tableName: 'deleted_account',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    deletedAt: p.datetime(),
  },
});
export class DeletedAccount extends DeletedAccountSchema.class {}
DeletedAccountSchema.setClass(DeletedAccount);

/** The items addressed to users who still have an account. */
export async function withoutDeletedAccounts<T extends { userId: number }>(em: EntityManager, items: readonly T[]): Promise<T[]> {
  const gone = new Set((await em.find(DeletedAccount, { userId: { $in: [...new Set(items.map((i) => i.userId))] } })).map((d) => d.userId));
  return items.filter((i) => !gone.has(i.userId));
}
