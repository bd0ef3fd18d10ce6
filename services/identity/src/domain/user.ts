import { defineEntity, p } from '@mikro-orm/postgresql';
import { Role } from '@puente/contracts';

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'user_account',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** Trimmed and lower-cased; compared case-insensitively. */
    email: p.string().unique(),
    passwordHash: p.string().nullable().lazy(),
    firstName: p.string(),
    lastName: p.string(),
    profileImageUrl: p.string().nullable(),
    role: p.enum(Role.options).default('user'),
    referralCode: p.string().unique(),
    referredById: p.integer().nullable(),
    /** The Google account (OpenID `sub`) linked at the first Google sign-in; null until then. */
    googleSubject: p.string().nullable().unique(),
    emailVerified: p.boolean().default(false),
    phoneVerified: p.boolean().default(false),
    idVerified: p.boolean().default(false),
    bankVerified: p.boolean().default(false),
    /** Projection of the rating service: average 0-5 with one decimal, null before the first rating. */
    trustRating: p.decimal('string').precision(2).scale(1).nullable(),
    ratingCount: p.integer().default(0),
    transactionCount: p.integer().default(0),
    /**
     * The trade record, from the exchange service's events, counted since identity began to count them (so the
     * completed count is kept apart from transactionCount): matches confirmed and completed, and the completed ones
     * whose confirmation time the event carried, with their total seconds from confirmation to completion.
     */
    confirmedMatchCount: p.integer().default(0),
    completedMatchCount: p.integer().default(0),
    timedCompletionCount: p.integer().default(0),
    completionSecondsTotal: p.bigint('number').default(0),
    hasBothAccounts: p.boolean().default(false),
    subscriptionTier: p.enum(['free', 'premium']).default('free'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
