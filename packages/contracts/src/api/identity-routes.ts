/** Identity's routes: the spec's auth, sign-up, user, referral and directory calls, and the ones every user expects. */
import { z } from 'zod';
import { Message, PaginationQuery } from './common.ts';
import { PersonalDataExport } from './personal-data.ts';
import { routeGroup } from './route.ts';
import {
  AdminVerificationRequest, AdminVerificationRequestList, CurrentUser, ForgotPasswordRequest,
  ForgotPasswordResponse, InternalUserList, InternalUsersQuery, LoginRequest, LoginResponse, PublicUser, AdminUserView, ReferralCodeParams,
  ReferralCodeResponse, ReferralList, ResetPasswordRequest, SignupRequest, SignupRequestResponse, SignupVerifyRequest,
  SignupVerifyResponse, UserIdParams, UserProfileUpdate, VerificationRequestIdParams,
  VerificationRequestListQuery, VerificationRequestResponse, VerificationTypeParams, VerifyReferralResponse,
  OwnVerificationRequestList,
} from './identity.ts';
import { DirectoryQuery, UserDirectory } from './identity-directory.ts';
import { ID_DOCUMENT_MAX_BYTES, IdDocumentFile, IdDocumentType } from './identity-documents.ts';
import { AccountDeletionRequest } from './identity-personal-data.ts';
import { ChangePasswordRequest, SignInMethods } from './identity-reauthentication.ts';
import { GoogleLinkRequest, GoogleLoginQuery, PendingGoogleLink } from './identity-google.ts';
import {
  TwoFactorConfirmRequest, TwoFactorEnabled, TwoFactorLoginRequest, TwoFactorRecoveryCodesRequest, TwoFactorSetup, TwoFactorStatus,
} from './identity-two-factor.ts';

export const IdentityRoutes = routeGroup('identity', {
  verifyReferral: {
    method: 'GET', path: '/api/auth/verify-referral/{code}', access: 'visitor', params: ReferralCodeParams,
    summary: 'Is this a referral code of an existing user? 200 if so, 404 if not.',
    responses: { 200: VerifyReferralResponse },
  },
  currentUser: {
    method: 'GET', path: '/api/auth/user', access: 'user',
    summary: 'The signed-in user, with role, trust score and trust level.',
    responses: { 200: CurrentUser },
  },
  editCurrentUser: {
    method: 'PATCH', path: '/api/auth/user', access: 'user', body: UserProfileUpdate,
    summary: 'Edit one\'s own first and last name, or the language one reads Puente and its emails in.',
    responses: { 200: CurrentUser },
  },
  login: {
    method: 'POST', path: '/api/auth/login', access: 'visitor', body: LoginRequest,
    summary: 'Log in with email and password; the gateway starts the session (401 wrong credentials, 403 unverified).',
    responses: { 200: LoginResponse },
  },
  loginTwoFactor: {
    method: 'POST', path: '/api/auth/login/two-factor', access: 'visitor', body: TwoFactorLoginRequest,
    summary: 'The login\'s second step: the challenge and a current code or a recovery code; the gateway starts the session (401 wrong or used code, 429 too many).',
    responses: { 200: Message },
  },
  twoFactorStatus: {
    method: 'GET', path: '/api/auth/two-factor', access: 'user',
    summary: 'Whether two-factor sign-in is on for the signed-in user, and how many recovery codes are left.',
    responses: { 200: TwoFactorStatus },
  },
  twoFactorSetup: {
    method: 'POST', path: '/api/auth/two-factor/setup', access: 'user',
    summary: 'Start setting up two-factor sign-in: a new secret and its otpauth URI (409 when it is already on).',
    responses: { 200: TwoFactorSetup },
  },
  twoFactorEnable: {
    method: 'POST', path: '/api/auth/two-factor/enable', access: 'user', body: TwoFactorConfirmRequest,
    summary: 'Turn two-factor sign-in on with a current code and the current password (a Google-only account: a Google sign-in again): the recovery codes, shown once.',
    responses: { 200: TwoFactorEnabled },
  },
  twoFactorDisable: {
    method: 'POST', path: '/api/auth/two-factor/disable', access: 'user', body: TwoFactorConfirmRequest,
    summary: 'Turn two-factor sign-in off with a current code (or a recovery code) and the current password.',
    responses: { 200: Message },
  },
  twoFactorRecoveryCodes: {
    method: 'POST', path: '/api/auth/two-factor/recovery-codes', access: 'user', body: TwoFactorRecoveryCodesRequest,
    summary: 'New recovery codes for a current code from the authenticator app and the current password, shown once; the old ones stop working.',
    responses: { 200: TwoFactorEnabled },
  },
  signInMethods: {
    method: 'GET', path: '/api/auth/sign-in-methods', access: 'user',
    summary: 'How the signed-in user signs in (password, linked Google account, two-factor) and which proof their account gives.',
    responses: { 200: SignInMethods },
  },
  unlinkGoogle: {
    method: 'DELETE', path: '/api/auth/sign-in-methods/google', access: 'user',
    summary: 'Remove the linked Google account (409 for an account without a password: it could no longer sign in).',
    responses: { 204: null },
  },
  googleLogin: {
    method: 'GET', path: '/api/auth/google', access: 'visitor', query: GoogleLoginQuery, navigation: true,
    summary: 'Browser navigation: to Google sign-in (or to /login-failed when it is not configured); with reauthenticate, a signed-in user confirms an action.',
    responses: { 302: null },
  },
  googleCallback: {
    method: 'GET', path: '/api/auth/google/callback', access: 'visitor', navigation: true,
    summary: 'Browser navigation back from Google: to /dashboard with a session, to /link-google to link an existing account, back to /profile after a confirmation, or to /login-failed.',
    responses: { 302: null },
  },
  pendingGoogleLink: {
    method: 'GET', path: '/api/auth/google/link', access: 'visitor',
    summary: 'The Google account waiting to be linked to an existing account (the browser\'s short-lived cookie): its email, and whether a code is asked (401 when none, or expired).',
    responses: { 200: PendingGoogleLink },
  },
  linkGoogle: {
    method: 'POST', path: '/api/auth/google/link', access: 'visitor', body: GoogleLinkRequest,
    summary: 'Link the waiting Google account with the account\'s password (and a code, two-factor on); the gateway starts the session (401 wrong password or code, or expired).',
    responses: { 200: Message },
  },
  headerLogin: {
    method: 'GET', path: '/api/login', access: 'visitor', navigation: true,
    summary: 'Browser navigation (the header\'s Log In): to the login page.',
    responses: { 302: null },
  },
  signupRequest: {
    method: 'POST', path: '/api/signup/request', access: 'visitor', body: SignupRequest,
    summary: 'Sign up with a referral code; the verification token is emailed (and returned, as a testing aid, when enabled).',
    responses: { 201: SignupRequestResponse },
  },
  signupVerify: {
    method: 'POST', path: '/api/signup/verify', access: 'visitor', body: SignupVerifyRequest,
    summary: 'Verify a sign-up with its emailed token; the account is created.',
    responses: { 200: SignupVerifyResponse },
  },
  forgotPassword: {
    method: 'POST', path: '/api/auth/forgot-password', access: 'visitor', body: ForgotPasswordRequest,
    summary: 'Email a password-reset link; the same answer whether or not the email has an account.',
    responses: { 200: ForgotPasswordResponse },
  },
  resetPassword: {
    method: 'POST', path: '/api/auth/reset-password', access: 'visitor', body: ResetPasswordRequest,
    summary: 'Choose a new password with an emailed reset token; every session of the user ends.',
    responses: { 200: Message },
  },
  changePassword: {
    method: 'POST', path: '/api/auth/change-password', access: 'user', body: ChangePasswordRequest,
    summary: 'Change one\'s password with the proof of the user (a Google-only account sets its first one); the user\'s other sessions end.',
    responses: { 200: Message },
  },
  user: {
    method: 'GET', path: '/api/users/{id}', access: 'visitor', params: UserIdParams,
    summary: 'A user\'s public profile (an admin sees email, role and plan too).',
    responses: { 200: z.union([AdminUserView, PublicUser]) },
  },
  requestVerification: {
    method: 'POST', path: '/api/users/verification/{type}', access: 'user', params: VerificationTypeParams,
    summary: 'Ask to be verified (email, phone, id or bank): 201 a new request, 200 one already pending or done.',
    responses: { 200: VerificationRequestResponse, 201: VerificationRequestResponse },
  },
  uploadIdDocument: {
    method: 'POST', path: '/api/users/verification/id/document', access: 'user', multipart: { file: 'file', maxBytes: ID_DOCUMENT_MAX_BYTES },
    summary: 'Upload the document of one\'s ID verification request (passport or ID card: PNG, JPEG or PDF, at most 10 MB, checked by content); the request then goes to review. 409 no ID request awaits one, 413 larger, 415 another type.',
    responses: { 200: VerificationRequestResponse },
  },
  ownVerificationRequests: {
    method: 'GET', path: '/api/users/me/verification-requests', access: 'user',
    summary: 'The signed-in user\'s open verification requests (awaiting a document, or pending review), oldest first.',
    responses: { 200: OwnVerificationRequestList },
  },
  downloadData: {
    method: 'GET', path: '/api/users/me/data', access: 'user',
    summary: 'Everything Puente holds about the signed-in user, one section per service, as a JSON file to save.',
    responses: { 200: PersonalDataExport },
  },
  deleteAccount: {
    method: 'POST', path: '/api/users/me/delete', access: 'user', body: AccountDeletionRequest,
    summary: 'Delete one\'s account (with the proof of the user): personal data erased in every service, every session ended; 409 while an exchange is in progress.',
    responses: { 200: Message },
  },
  referralCode: {
    method: 'GET', path: '/api/referral/code', access: 'user',
    summary: 'The signed-in user\'s own referral code.',
    responses: { 200: ReferralCodeResponse },
  },
  referralList: {
    method: 'GET', path: '/api/referral/list', access: 'user', query: PaginationQuery, paginated: true,
    summary: 'The people the signed-in user referred, newest first, a page at a time (X-Total-Count: how many in all).',
    responses: { 200: ReferralList },
  },
  directory: {
    method: 'GET', path: '/api/admin/users', access: 'visitor', query: DirectoryQuery, paginated: true,
    summary: 'The user directory, open to visitors, a page at a time (X-Total-Count: how many match), filtered by name and directory tier; each user with their dispute outcomes; admins also see email, role and plan.',
    responses: { 200: UserDirectory },
  },
  verificationRequests: {
    method: 'GET', path: '/api/admin/verification-requests', access: 'admin', query: VerificationRequestListQuery, paginated: true,
    summary: 'Verification requests by status (default: pending, those ready for review: an ID request once its document is in), oldest first.',
    responses: { 200: AdminVerificationRequestList },
  },
  approveVerification: {
    method: 'POST', path: '/api/admin/verification-requests/{id}/approve', access: 'admin', params: VerificationRequestIdParams,
    summary: 'Approve a pending verification request: the user\'s flag is set.',
    responses: { 200: AdminVerificationRequest },
  },
  rejectVerification: {
    method: 'POST', path: '/api/admin/verification-requests/{id}/reject', access: 'admin', params: VerificationRequestIdParams,
    summary: 'Reject a pending verification request.',
    responses: { 200: AdminVerificationRequest },
  },
  verificationDocument: {
    method: 'GET', path: '/api/admin/verification-requests/{id}/document', access: 'admin', params: VerificationRequestIdParams,
    produces: IdDocumentType.options,
    summary: 'The ID document of a verification request, for its review; 404 none, or deleted once the request was decided.',
    responses: { 200: IdDocumentFile },
  },
  loginRefused: {
    method: 'POST', path: '/internal/login-refused', access: 'internal', callers: ['gateway'],
    summary: 'The gateway refused a login with 429: record it in the login audit trail.',
    // Whatever the client typed as its email: it is recorded (made storable), never validated.
    body: z.object({ email: z.unknown().optional() }).nullish(),
    responses: { 204: null },
  },
  internalUsers: {
    method: 'GET', path: '/internal/users', access: 'internal', callers: ['accounts', 'exchange', 'notification', 'rating'], query: InternalUsersQuery,
    summary: 'Users by id, or a snapshot page by id, for other services\' projections and views (email included).',
    responses: { 200: InternalUserList },
  },
});
