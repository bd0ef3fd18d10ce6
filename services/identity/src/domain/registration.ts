/** Turning a verified sign-up (email token or Google) into a user, and the referral codes that let people in. */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Language } from '@puente/contracts';
import { changed, type Changed } from '@puente/platform';
import { NOT_DELETED, User } from './user.ts';
import { Referral } from './referral.ts';
import { newReferralCode, normaliseReferralCode } from './referral-codes.ts';
import { registered } from './user-transitions.ts';

/** The user owning a referral code (case and surrounding spaces ignored), or null; a deleted account refers nobody. */
export async function findReferrer(em: EntityManager, code: string): Promise<{ id: number } | null> {
  const normalised = normaliseReferralCode(code);
  if (normalised === '' || normalised.length > 64) return null;
  return em.findOne(User, { referralCode: normalised, ...NOT_DELETED }, { fields: ['id'] });
}

async function unusedReferralCode(em: EntityManager): Promise<string> {
  for (;;) {
    const code = newReferralCode();
    if (await em.count(User, { referralCode: code }) === 0) return code;
  }
}

export interface NewUser {
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  referrerId: number;
  googleSubject?: string | null;
  /** The language chosen at sign-up (English when none was). */
  language?: Language;
}

/**
 * Creates the (verified) user with its own referral code and records the referral, in the caller's transaction;
 * returns the user with the registration's event, for the caller's ServiceContext.change to write.
 */
export async function registerUser(tx: EntityManager, data: NewUser): Promise<Changed<User>> {
  const user = tx.create(User, {
    email: data.email, passwordHash: data.passwordHash, firstName: data.firstName, lastName: data.lastName,
    profileImageUrl: data.profileImageUrl, role: 'user', referralCode: await unusedReferralCode(tx),
    referredById: data.referrerId, googleSubject: data.googleSubject ?? null, googleLinkedAt: data.googleSubject ? new Date() : null,
    emailVerified: true, trustRating: null,
    language: data.language ?? 'en',
  });
  await tx.flush();
  tx.create(Referral, { referrerId: data.referrerId, referredId: user.id });
  await tx.flush();
  return changed(user, ...registered(user));
}
