/**
 * Identity's part of a user's data (UK GDPR): the section of the data download identity answers, and the deletion of
 * one's account (what the deleted user's fields become, the request and its messages).
 */
import { z } from 'zod';
import { Id } from './common.ts';
import { KnownDevice } from './devices.ts';
import { ReauthenticationProof } from './identity-reauthentication.ts';
import { TwoFactorRecord } from './identity-two-factor.ts';
import { AdminVerificationRequest, CurrentUser, ReferralList } from './identity.ts';

/**
 * What a deleted user's personal fields become wherever a service keeps them. The id stays, so completed exchanges,
 * ratings and referrals still add up; nothing says who the person was. The email stays unique per user and can never
 * be delivered (`.invalid` is reserved for that, RFC 2606).
 */
export const DeletedUser = {
  firstName: 'Deleted user',
  lastName: '',
  email: (userId: number): string => `deleted-${userId}@deleted.invalid`,
} as const;

/**
 * POST /api/users/me/delete: the proof of the user (identity-reauthentication.ts): the current password, or for an
 * account that signs in only with Google its app's code (two-factor on) or a Google sign-in again.
 */
export const AccountDeletionRequest = ReauthenticationProof;
export type AccountDeletionRequest = z.infer<typeof AccountDeletionRequest>;

/** What the deletion answers (the web app shows `message` as it is). */
export const AccountDeletionMessages = {
  deleted: 'Your account has been deleted.',
  tradeInProgress: 'You have an exchange in progress. Complete it, or call off its pending match, before deleting your account.',
  adminAccount: 'Admin accounts cannot be deleted.',
  unavailable: 'Your account cannot be deleted right now. Please try again later.',
  downloadUnavailable: 'Your data cannot be downloaded right now. Please try again later.',
} as const;

/** One of the user's verification requests, as their data download lists it (an ID document: what is known of it, not its file). */
export const VerificationRequestRecord = AdminVerificationRequest.pick({ id: true, type: true, status: true, createdAt: true, decidedAt: true, document: true });
export type VerificationRequestRecord = z.infer<typeof VerificationRequestRecord>;

/**
 * Identity's section of the data download: the profile as the user reads it, their referral code and who referred
 * them, whether a Google account is linked, their verification requests, the people they referred, the devices
 * they signed in from and whether two-factor sign-in is on. No password, TOTP secret or recovery code
 * hash, no token: those are not data about the person, and handing them out would weaken the account.
 */
export const IdentityPersonalData = z.object({
  profile: CurrentUser,
  referralCode: z.string(),
  referredById: Id.nullable(),
  googleAccountLinked: z.boolean(),
  verificationRequests: z.array(VerificationRequestRecord),
  referrals: ReferralList,
  knownDevices: z.array(KnownDevice),
  twoFactor: TwoFactorRecord,
});
export type IdentityPersonalData = z.infer<typeof IdentityPersonalData>;
