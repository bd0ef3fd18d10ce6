import { defineEntity, p } from '@mikro-orm/postgresql';
import { Language, Role } from '@puente/contracts';

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
    /** The Google account (OpenID `sub`) linked to the user (at a Google sign-up, or confirmed with the password); null when none. */
    googleSubject: p.string().nullable().unique(),
    /** When it was linked; null when none is, or for a link older than this record. */
    googleLinkedAt: p.datetime().nullable(),
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
    /** The language the user reads Puente and its emails in (chosen in the web app; beyond the spec). */
    language: p.enum(Language.options).default('en'),
    /**
     * Wrong passwords at login in the current window, and when it began (LOGIN_ACCOUNT_LIMIT, domain/failure-limit.ts):
     * past the limit every login of the account is refused until the window ends, from any caller.
     */
    failedLogins: p.integer().default(0),
    failedLoginsSince: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    /** When the user deleted their account (domain/erasure.ts): the row stays, anonymised, so ids still resolve. */
    deletedAt: p.datetime().nullable(),
  },
});
export class User extends UserSchema.class {}
UserSchema.setClass(User);

/** The filter for users who have not deleted their account: who may sign in, refer, be listed or be edited. */
export const NOT_DELETED = { deletedAt: null } as const;

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
