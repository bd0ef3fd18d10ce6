/**
 * Identity: login, sign-up, the current user, public and admin user views, referrals and verification requests.
 * Calls: /api/auth/*, /api/login, /api/signup/*, /api/users/*, /api/referral/*, /api/admin/users, and the routes the
 * spec does not list but every user expects (passwords, editing one's name, admin verification; see identity-routes.ts).
 */
import { z } from 'zod';
import {
  Count,
  Id,
  IsoDateTime,
  Message,
  PaginationQuery,
  SnapshotQuery,
  SubscriptionTier,
  TrustRating,
  ValidationMessages as M,
  idParam,
  passwordText,
  requiredText,
  safeText,
} from './common.ts';
import { TwoFactorChallenge } from './identity-two-factor.ts';
import { IdDocument } from './identity-documents.ts';

export * from './identity-documents.ts';

/**
 * Identity's own messages, for what spec section 5 does not word (ValidationMessages holds the spec's). The web app
 * shows `message` as it is.
 */
export const IdentityMessages = {
  emailTooLong: 'Email must be at most 254 characters',
  passwordTooLong: 'Password must be at most 200 characters',
  firstNameTooLong: 'First name must be at most 100 characters',
  lastNameTooLong: 'Last name must be at most 100 characters',
  nothingToUpdate: 'Send a first name or a last name to update',
  currentPasswordRequired: 'Current password is required',
  resetTokenRequired: 'Reset token is required',
  verificationRequestIdInvalid: 'Invalid verification request ID',
  firstNameInvalidCharacters: 'First name contains characters that are not allowed',
  lastNameInvalidCharacters: 'Last name contains characters that are not allowed',
  referralCodeInvalidCharacters: 'Referral code contains characters that are not allowed',
  languageInvalid: "Language must be 'en' or 'es'",
} as const;
const IM = IdentityMessages;

// ---------------------------------------------------------------------------------------------------------------
// Requests

/**
 * A trimmed, valid email; 'Please enter a valid email address' when missing, invalid or holding characters that are
 * not allowed. Case is kept as typed.
 */
export const EmailAddress = safeText({ required: M.emailInvalid, invalid: M.emailInvalid })
  .pipe(z.email({ error: M.emailInvalid }).max(254, IM.emailTooLong));
export type EmailAddress = z.infer<typeof EmailAddress>;

/**
 * The language a user reads Puente in (beyond the spec): the web app's, stored with the user so that every device
 * and every email speaks it. `es` is Chile's Spanish.
 */
export const Language = z.enum(['en', 'es'], { error: IM.languageInvalid });
export type Language = z.infer<typeof Language>;

/** POST /api/auth/login */
export const LoginRequest = z.object({
  email: EmailAddress,
  password: passwordText(M.passwordRequired).min(1, M.passwordRequired),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/**
 * A new password, kept exactly as typed (not trimmed, not normalised): at least 8 characters, at most 200 (hashing
 * cost is bounded), no NUL or lone surrogate.
 */
export const NewPassword = passwordText(M.passwordTooShort).min(8, M.passwordTooShort).max(200, IM.passwordTooLong);
export type NewPassword = z.infer<typeof NewPassword>;

/** A referral code: non-empty after trimming. */
export const ReferralCode = requiredText(M.referralCodeRequired, { invalid: IM.referralCodeInvalidCharacters });
export type ReferralCode = z.infer<typeof ReferralCode>;

export const FirstName = requiredText(M.firstNameRequired, { invalid: IM.firstNameInvalidCharacters })
  .max(100, IM.firstNameTooLong);
export const LastName = requiredText(M.lastNameRequired, { invalid: IM.lastNameInvalidCharacters })
  .max(100, IM.lastNameTooLong);

/** POST /api/signup/request */
export const SignupRequest = z.object({
  email: EmailAddress,
  password: NewPassword,
  firstName: FirstName,
  lastName: LastName,
  referralCode: ReferralCode,
  /** The web app's language at sign-up: the verification email is already in it (English when absent). */
  language: Language.optional(),
});
export type SignupRequest = z.infer<typeof SignupRequest>;

/**
 * The register page's sign-up form: first name, last name, email, password and confirm password (spec section 2).
 * The referral code is not a field of this form (it comes from the page's referral input / URL); the page adds it
 * when it builds the SignupRequest.
 */
export const SignupForm = SignupRequest.omit({ referralCode: true })
  .extend({ confirmPassword: z.string({ error: M.passwordsDontMatch }) })
  .refine((form) => form.password === form.confirmPassword, {
    message: M.passwordsDontMatch,
    path: ['confirmPassword'],
    // Also when other fields failed, so the form shows every message at once.
    when: (payload) => {
      const value = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined;
      return typeof value?.password === 'string' && typeof value.confirmPassword === 'string';
    },
  });
export type SignupForm = z.infer<typeof SignupForm>;

/** POST /api/signup/verify */
export const SignupVerifyRequest = z.object({ token: requiredText(M.verificationTokenRequired) });
export type SignupVerifyRequest = z.infer<typeof SignupVerifyRequest>;

export const VerificationType = z.enum(['email', 'phone', 'id', 'bank'], { error: M.verificationTypeInvalid });
export type VerificationType = z.infer<typeof VerificationType>;

/** Route params of POST /api/users/verification/{type} (the body is empty). */
export const VerificationTypeParams = z.object({ type: VerificationType });
export type VerificationTypeParams = z.infer<typeof VerificationTypeParams>;

/** Route params of GET /api/auth/verify-referral/{code} */
export const ReferralCodeParams = z.object({ code: ReferralCode });
export type ReferralCodeParams = z.infer<typeof ReferralCodeParams>;

/** PATCH /api/auth/user: edit one's own first and/or last name, or the language one reads Puente in (at least one). */
export const UserProfileUpdate = z.object({
  firstName: FirstName.optional(),
  lastName: LastName.optional(),
  language: Language.optional(),
}).refine((u) => u.firstName !== undefined || u.lastName !== undefined || u.language !== undefined, { message: IM.nothingToUpdate });
export type UserProfileUpdate = z.infer<typeof UserProfileUpdate>;

/**
 * POST /api/auth/forgot-password. `unlinkGoogle`: the reset link it emails also removes the Google account linked to
 * the user (the "I didn't do this" of the email that says one was linked).
 */
export const ForgotPasswordRequest = z.object({ email: EmailAddress, unlinkGoogle: z.boolean().optional() });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** POST /api/auth/reset-password: the emailed token and the new password. */
export const ResetPasswordRequest = z.object({
  token: requiredText(IM.resetTokenRequired),
  password: NewPassword,
});
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

export const UserIdParam = idParam(M.userIdInvalid);
export type UserIdParam = z.infer<typeof UserIdParam>;

/** Route params of GET /api/users/{id} */
export const UserIdParams = z.object({ id: UserIdParam });
export type UserIdParams = z.infer<typeof UserIdParams>;

// ---------------------------------------------------------------------------------------------------------------
// Responses

/**
 * POST /api/signup/request, 201: the verification token (shown on the 'Check Your Email' screen for testing). The
 * token is a testing aid: absent when the server does not expose tokens (production), where it is only emailed.
 */
export const SignupRequestResponse = z.object({
  message: z.string().optional(),
  verificationToken: z.string().min(1).optional(),
});
export type SignupRequestResponse = z.infer<typeof SignupRequestResponse>;

/** POST /api/signup/verify, 200 */
export const SignupVerifyResponse = Message;
export type SignupVerifyResponse = z.infer<typeof SignupVerifyResponse>;

/** POST /api/auth/login, 200: signed in, or (two-factor sign-in on) the challenge of the second step. */
export const LoginResponse = z.union([TwoFactorChallenge, Message]);
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST /api/auth/logout, 200 */
export const LogoutResponse = Message;
export type LogoutResponse = z.infer<typeof LogoutResponse>;

export const Role = z.enum(['user', 'admin']);
export type Role = z.infer<typeof Role>;

/** Trust levels by points (spec section 9): Unverified 0-24, Bronze 25-44, Silver 45-64, Gold 65-79, Platinum 80+. */
export const TrustLevel = z.enum(['Unverified', 'Bronze', 'Silver', 'Gold', 'Platinum']);
export type TrustLevel = z.infer<typeof TrustLevel>;

/** Trust score out of 100 (spec section 9); the rating part can be fractional. */
export const TrustScore = z.number().min(0).max(100);
export type TrustScore = z.infer<typeof TrustScore>;

/** The User entity of spec section 3. */
export const User = z.object({
  id: Id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  profileImageUrl: z.string().nullable(),
  trustRating: TrustRating,
  ratingCount: Count,
  transactionCount: Count,
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  idVerified: z.boolean(),
  bankVerified: z.boolean(),
  subscriptionTier: SubscriptionTier,
  hasBothAccounts: z.boolean(),
  createdAt: IsoDateTime,
});
export type User = z.infer<typeof User>;

/**
 * GET /internal/users (other services only): users by `ids` (comma-separated, at most 500), or a snapshot page
 * (afterId, limit) when no ids are given. Answers the User of spec section 3, email included: internal callers show
 * it only where the product does (the other party of a completed exchange) and never put it on the bus.
 */
export const InternalUsersQuery = SnapshotQuery.extend({
  ids: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value),
    z.array(idParam(M.userIdInvalid)).min(1).max(500).optional(),
  ),
});
export type InternalUsersQuery = z.infer<typeof InternalUsersQuery>;

/** A user as other services read them: the User, and the language their emails are written in. */
export const InternalUser = User.extend({ language: Language.default('en') });
export type InternalUser = z.infer<typeof InternalUser>;

export const InternalUserList = z.array(InternalUser);
export type InternalUserList = z.infer<typeof InternalUserList>;

/** GET /api/auth/user: the User plus role, trustScore, trustLevel and the stored language. */
export const CurrentUser = User.extend({
  role: Role,
  trustScore: TrustScore,
  trustLevel: TrustLevel,
  language: Language,
});
export type CurrentUser = z.infer<typeof CurrentUser>;

const publicUserShape = {
  id: Id,
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  trustRating: TrustRating,
  ratingCount: Count,
  transactionCount: Count,
  trustLevel: TrustLevel,
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  idVerified: z.boolean(),
  bankVerified: z.boolean(),
  /** When the user joined: the profile's account age. */
  createdAt: IsoDateTime,
  /**
   * Beyond the spec (anchor: Binance P2P): completed ÷ confirmed matches as a percentage, 0-100 with one decimal
   * rounded half-up from the two counts; null before the user's first confirmed match.
   */
  completionRate: z.number().min(0).max(100).nullable(),
  /**
   * Beyond the spec: the mean minutes from a match's confirmation to its completion over the user's completed
   * matches, rounded half-up to whole minutes; null before the first.
   */
  averageCompletionMinutes: Count.nullable(),
};

/**
 * GET /api/users/{id} and the directory for non-admins. Strict: a public view carrying any other key (an email, a
 * role, ...) fails to parse, so tests catch a leak.
 */
export const PublicUser = z.strictObject(publicUserShape);
export type PublicUser = z.infer<typeof PublicUser>;

/** The directory entry an admin sees: the public view plus email, role and subscriptionTier. Strict as well. */
export const AdminUserView = z.strictObject({
  ...publicUserShape,
  email: z.string(),
  role: Role,
  subscriptionTier: SubscriptionTier,
});
export type AdminUserView = z.infer<typeof AdminUserView>;

/** GET /api/auth/verify-referral/{code}, 200 (a non-valid code answers 404 with `{ message }`). */
export const VerifyReferralResponse = z.object({ valid: z.literal(true) });
export type VerifyReferralResponse = z.infer<typeof VerifyReferralResponse>;

/** GET /api/referral/code */
export const ReferralCodeResponse = z.object({ referralCode: z.string().min(1) });
export type ReferralCodeResponse = z.infer<typeof ReferralCodeResponse>;

/** One item of GET /api/referral/list: the referral and the referred user's name (the profile's Referrals tab). */
export const Referral = z.object({
  id: Id,
  referredId: Id,
  createdAt: IsoDateTime,
  firstName: z.string(),
  lastName: z.string(),
});
export type Referral = z.infer<typeof Referral>;

export const ReferralList = z.array(Referral);
export type ReferralList = z.infer<typeof ReferralList>;

/**
 * A request is pending until an admin approves or rejects it; an ID request first awaits its document
 * (identity-documents.ts) and is pending review only once it is uploaded.
 */
export const VerificationRequestStatus = z.enum(['awaiting_document', 'pending', 'approved', 'rejected']);
export type VerificationRequestStatus = z.infer<typeof VerificationRequestStatus>;

/**
 * POST /api/users/verification/{type}: 201 with a new request (pending; for id, awaiting its document), 200 when one
 * is already open or the user is already verified for that type (then `status` is 'approved' and `id` null). The
 * client then refreshes the user. The document's upload (POST /api/users/verification/id/document) answers the same.
 */
export const VerificationRequestResponse = z.object({
  message: z.string(),
  id: Id.nullable(),
  type: VerificationType,
  status: VerificationRequestStatus,
});
export type VerificationRequestResponse = z.infer<typeof VerificationRequestResponse>;

/**
 * One item of GET /api/admin/verification-requests (admins): a request and who asked; for an ID request its document
 * (the file at GET /api/admin/verification-requests/{id}/document while the request is pending).
 */
export const AdminVerificationRequest = z.object({
  id: Id,
  userId: Id,
  type: VerificationType,
  status: VerificationRequestStatus,
  createdAt: IsoDateTime,
  decidedAt: IsoDateTime.nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  document: IdDocument.nullable(),
});
export type AdminVerificationRequest = z.infer<typeof AdminVerificationRequest>;

export const AdminVerificationRequestList = z.array(AdminVerificationRequest);
export type AdminVerificationRequestList = z.infer<typeof AdminVerificationRequestList>;

/** One of the signed-in user's open verification requests (awaiting a document or pending review). */
export const OwnVerificationRequest = z.object({
  id: Id,
  type: VerificationType,
  status: VerificationRequestStatus,
  createdAt: IsoDateTime,
  /** The ID document, for an id request once uploaded; null otherwise. */
  document: IdDocument.nullable(),
});
export type OwnVerificationRequest = z.infer<typeof OwnVerificationRequest>;

export const OwnVerificationRequestList = z.array(OwnVerificationRequest);
export type OwnVerificationRequestList = z.infer<typeof OwnVerificationRequestList>;

/**
 * Query of GET /api/admin/verification-requests: which requests (default: those waiting for review; an ID request
 * only once its document is in).
 */
export const VerificationRequestListQuery = PaginationQuery.extend({ status: VerificationRequestStatus.default('pending') });
export type VerificationRequestListQuery = z.infer<typeof VerificationRequestListQuery>;

/** Route params of POST /api/admin/verification-requests/{id}/approve and /reject */
export const VerificationRequestIdParams = z.object({ id: idParam(IM.verificationRequestIdInvalid) });
export type VerificationRequestIdParams = z.infer<typeof VerificationRequestIdParams>;

/** POST /api/auth/forgot-password, 200: the same answer whether the email has an account or not. */
export const ForgotPasswordResponse = z.object({
  message: z.string(),
});
export type ForgotPasswordResponse = z.infer<typeof ForgotPasswordResponse>;
