import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import type { Referral as ReferralBody } from '@puente/contracts';
import { User } from './user.ts';

/** Who brought whom: written when a referred sign-up becomes a user (email verification or Google). */
export const ReferralSchema = defineEntity({
  name: 'Referral',
  tableName: 'referral',
  properties: {
    id: p.integer().primary().autoincrement(),
    referrerId: p.integer().index(),
    /** A user is referred once. */
    referredId: p.integer().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Referral extends ReferralSchema.class {}
ReferralSchema.setClass(Referral);

/**
 * The people a user brought in, newest first, with their names, and how many there are in all: a page of them (the
 * profile's Referrals tab) or, without `page`, every one (the data download).
 */
export async function referralsMadeBy(
  em: EntityManager, referrerId: number, page?: { limit: number; offset: number },
): Promise<{ referrals: ReferralBody[]; total: number }> {
  const [referrals, total] = await em.findAndCount(Referral, { referrerId }, { orderBy: { createdAt: 'desc', id: 'desc' }, ...page });
  const users = await em.find(User, { id: { $in: referrals.map((r) => r.referredId) } }, { fields: ['firstName', 'lastName'] });
  const byId = new Map(users.map((u) => [u.id, u]));
  return {
    total,
    referrals: referrals.map((r) => ({
      id: r.id,
      referredId: r.referredId,
      createdAt: r.createdAt.toISOString(),
      firstName: byId.get(r.referredId)?.firstName ?? '',
      lastName: byId.get(r.referredId)?.lastName ?? '',
    })),
  };
}
