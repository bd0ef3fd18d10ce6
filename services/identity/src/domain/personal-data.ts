/**
 * What identity holds of a user, for their data download, and their account's deletion: the user row is kept (other
 * services' trades, ratings and referrals name its id) with every personal field erased, the tokens, verification
 * requests (with any ID document) and devices signed in from are deleted, and identity's own published events that carried their names or
 * email are dropped from its outbox. The deletion is announced (identity.user.deleted) for every other service to erase what it holds.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeletedUser, type EventEnvelope, type IdentityPersonalData } from '@puente/contracts';
import { OutboxEvent, makeEvent } from '@puente/platform';
import { User } from './user.ts';
import { PasswordReset } from './password-reset.ts';
import { VerificationRequest } from './verification-request.ts';
import { IdDocument, idDocumentsOf } from './id-documents.ts';
import { referralsMadeBy } from './referral.ts';
import { currentUserView } from './views.ts';
import { KnownDevice, knownDevicesOf } from './known-device.ts';
import { TwoFactor, twoFactorRecord } from './two-factor.ts';
import { RecentGoogleSignIn } from './reauthentication.ts';

export async function personalDataOf(em: EntityManager, user: User): Promise<IdentityPersonalData> {
  const requests = await em.find(VerificationRequest, { userId: user.id }, { orderBy: { id: 'asc' } });
  const documents = await idDocumentsOf(em, requests.map((r) => r.id));
  return {
    profile: currentUserView(user),
    referralCode: user.referralCode,
    referredById: user.referredById ?? null,
    googleAccountLinked: Boolean(user.googleSubject),
    verificationRequests: requests.map((r) => ({
      id: r.id, type: r.type, status: r.status, createdAt: r.createdAt.toISOString(), decidedAt: r.decidedAt?.toISOString() ?? null,
      // What is known of an ID document, not its file: the download is a JSON file, and the user has the original.
      document: documents.get(r.id) ?? null,
    })),
    referrals: (await referralsMadeBy(em, user.id)).referrals,
    knownDevices: await knownDevicesOf(em, user.id),
    twoFactor: twoFactorRecord(await em.findOne(TwoFactor, { userId: user.id })),
  };
}

/**
 * Anonymises the user in the caller's transaction and returns the deletion's event for its ServiceContext.change to
 * write. The trade record, ratings counts and who referred whom stay: they are ids and numbers other people's records
 * add up to, and say nothing of who the person was.
 */
export async function eraseUser(tx: EntityManager, user: User): Promise<EventEnvelope[]> {
  const { id, email } = user;
  await tx.nativeDelete(PasswordReset, { userId: id });
  await tx.nativeDelete(IdDocument, { userId: id });
  await tx.nativeDelete(VerificationRequest, { userId: id });
  await tx.nativeDelete(KnownDevice, { userId: id });
  await tx.nativeDelete(TwoFactor, { userId: id });
  await tx.nativeDelete(RecentGoogleSignIn, { userId: id });
  await tx.nativeUpdate(User, { id }, {
    email: DeletedUser.email(id), passwordHash: null, firstName: DeletedUser.firstName, lastName: DeletedUser.lastName,
    profileImageUrl: null, googleSubject: null, googleLinkedAt: null,
    // Unique like every code, and never one a visitor can type: codes are compared upper-cased.
    referralCode: `deleted-${id}`,
    emailVerified: false, phoneVerified: false, idVerified: false, bankVerified: false, deletedAt: new Date(),
  });
  // Published events about the user (registered, profile-updated, verified: keyed by the id) and their attempts
  // (keyed by the email) held names, emails, IPs and user agents; the ones still to publish go out first.
  await tx.nativeDelete(OutboxEvent, { publishedAt: { $ne: null }, aggregateId: { $in: [String(id), email] } });
  return [makeEvent('userDeleted', id, { userId: id })];
}
