/**
 * Every query key of the app in one place. Keys start with the API path they read, so invalidating a path's key
 * refreshes every reading of it (whatever its filters).
 */
import { Paths, IdentityPaths } from '@puente/contracts';

export interface AttemptFilters {
  email: string;
  from: string;
  to: string;
}

export const queryKeys = {
  currentUser: [Paths.currentUser] as const,
  bankAccounts: [Paths.bankAccounts] as const,
  verifyReferral: (code: string) => [Paths.verifyReferral, code] as const,
  referralCode: [Paths.referralCode] as const,
  referralList: [Paths.referralList] as const,
  userDirectory: [Paths.adminUsers] as const,
  user: (id: number) => [Paths.user, id] as const,
  ratingsForUser: (userId: number) => [Paths.ratingsForUser, userId] as const,
  notificationCount: [Paths.notificationCount] as const,
  signupFailures: (filters: AttemptFilters) => [Paths.signupFailures, filters] as const,
  loginFailures: (filters: AttemptFilters) => [Paths.loginFailures, filters] as const,
  signupAttempts: (filters: AttemptFilters, page: { limit: number; offset: number }) => [Paths.signupAttempts, filters, page] as const,
  loginAttempts: (filters: AttemptFilters, page: { limit: number; offset: number }) => [Paths.loginAttempts, filters, page] as const,
  adminVerificationRequests: [IdentityPaths.adminVerificationRequests] as const,
};
