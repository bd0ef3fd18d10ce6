/**
 * The changes of a user that other services hear of, each returning the events it caused: registration (a user just
 * stored, its id known), a profile edit, and a Google account linked (announced by the login attempt, not here) or
 * removed (nobody else keeps it). Callers write the events with ServiceContext.change. Erasure is personal-data.ts eraseUser.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope, Language } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import type { User } from './user.ts';
import { RecentGoogleSignIn } from './reauthentication.ts';

export interface ProfileEdit { firstName?: string | undefined; lastName?: string | undefined; language?: Language | undefined }

/** A user just stored joins: other services keep their names and who referred them. */
export function registered(user: User): EventEnvelope[] {
  return [makeEvent('userRegistered', user.id, {
    userId: user.id, firstName: user.firstName, lastName: user.lastName, role: user.role, referrerId: user.referredById ?? null,
  })];
}

/**
 * The user edits their names and language (the fields given). Other services keep names, not the language (they read
 * it from GET /internal/users when they write an email), so only an edit naming a name is announced.
 */
export function editProfile(user: User, edit: ProfileEdit): EventEnvelope[] {
  if (edit.firstName !== undefined) user.firstName = edit.firstName;
  if (edit.lastName !== undefined) user.lastName = edit.lastName;
  if (edit.language !== undefined) user.language = edit.language;
  if (edit.firstName === undefined && edit.lastName === undefined) return [];
  return [makeEvent('userProfileUpdated', user.id, {
    userId: user.id, firstName: user.firstName, lastName: user.lastName, profileImageUrl: user.profileImageUrl ?? null,
  })];
}

/**
 * A Google account linked to an existing user (with the account's password: routes/google-link.ts): linked if none
 * was (the caller refuses one linked to another), and the email counts as verified since Google vouches for it.
 */
export function linkGoogleAccount(user: User, subject: string, at = new Date()): void {
  if (!user.googleSubject) Object.assign(user, { googleSubject: subject, googleLinkedAt: at });
  user.emailVerified = true;
}

/**
 * The linked Google account removed (from the profile, or by a reset asked for with `unlinkGoogle`): it no longer
 * signs in, and this user's Google sign-ins made as proof no longer count.
 */
export async function unlinkGoogleAccount(tx: EntityManager, user: User): Promise<void> {
  Object.assign(user, { googleSubject: null, googleLinkedAt: null });
  await tx.nativeDelete(RecentGoogleSignIn, { userId: user.id });
}
