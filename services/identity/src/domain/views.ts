/**
 * What the API shows of a user: the current user (GET /auth/user), the User other services read (GET /internal/users),
 * the public view (profiles, the directory for everyone but admins) and the admin view. Trust score and level come from
 * the one shared computation; the public view adds the trade record (beyond the spec): completion rate and average time
 * to complete.
 */
import {
  averageCompletionMinutes, completionRate, trustLevel, trustScore, type AdminUserView, type CurrentUser, type InternalUser, type PublicUser, type User as UserBody,
} from '@puente/contracts';
import type { User } from './user.ts';

const rating = (u: User): number | null => (u.trustRating === null || u.trustRating === undefined ? null : Number(u.trustRating));

function trust(u: User): { trustScore: number; trustLevel: CurrentUser['trustLevel'] } {
  const score = trustScore({
    trustRating: rating(u), ratingCount: u.ratingCount, transactionCount: u.transactionCount,
    emailVerified: u.emailVerified, phoneVerified: u.phoneVerified, idVerified: u.idVerified, bankVerified: u.bankVerified,
  });
  return { trustScore: score, trustLevel: trustLevel(score) };
}

export function publicUserView(u: User): PublicUser {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    profileImageUrl: u.profileImageUrl ?? null,
    trustRating: rating(u),
    ratingCount: u.ratingCount,
    transactionCount: u.transactionCount,
    trustLevel: trust(u).trustLevel,
    emailVerified: u.emailVerified,
    phoneVerified: u.phoneVerified,
    idVerified: u.idVerified,
    bankVerified: u.bankVerified,
    createdAt: u.createdAt.toISOString(),
    completionRate: completionRate(u.completedMatchCount, u.confirmedMatchCount),
    averageCompletionMinutes: averageCompletionMinutes(u.completionSecondsTotal, u.timedCompletionCount),
  };
}

export function adminUserView(u: User): AdminUserView {
  return { ...publicUserView(u), email: u.email, role: u.role, subscriptionTier: u.subscriptionTier };
}

/** The User of spec section 3 (email included): for other services, and the base of the current user. */
export function userView(u: User): UserBody {
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    profileImageUrl: u.profileImageUrl ?? null,
    trustRating: rating(u),
    ratingCount: u.ratingCount,
    transactionCount: u.transactionCount,
    emailVerified: u.emailVerified,
    phoneVerified: u.phoneVerified,
    idVerified: u.idVerified,
    bankVerified: u.bankVerified,
    subscriptionTier: u.subscriptionTier,
    hasBothAccounts: u.hasBothAccounts,
    createdAt: u.createdAt.toISOString(),
  };
}

export function currentUserView(u: User): CurrentUser {
  return { ...userView(u), role: u.role, ...trust(u), language: u.language };
}

/** A user as other services read them (GET /internal/users): the User and the language to write to them in. */
export function internalUserView(u: User): InternalUser {
  return { ...userView(u), language: u.language };
}
