import { defineEntity, p } from '@mikro-orm/postgresql';

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
