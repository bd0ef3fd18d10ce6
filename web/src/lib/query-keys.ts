/**
 * Every query key of the app in one place. Keys start with the declared path of the route they read, so
 * invalidating a route's key refreshes every reading of it (whatever its filters).
 */
import { Routes } from '@puente/contracts';

export interface AttemptFilters {
  email: string;
  from: string;
  to: string;
}

/** A period of whole UTC days, from and to inclusive (`YYYY-MM-DD`): the admin charts'. */
export interface Period {
  from: string;
  to: string;
}

export interface Page {
  limit: number;
  offset: number;
}

export const queryKeys = {
  currentUser: [Routes.identity.currentUser.path] as const,
  /** How the user signs in, and the proof their account gives (lib/sign-in-methods.ts). */
  signInMethods: [Routes.identity.signInMethods.path] as const,
  bankAccounts: [Routes.accounts.list.path] as const,
  referralCode: [Routes.identity.referralCode.path] as const,
  referralList: (page: Page) => [Routes.identity.referralList.path, page] as const,
  userDirectory: [Routes.identity.directory.path] as const,
  ratingsForUser: (userId: number) => [Routes.rating.forUser.path, userId] as const,
  user: (userId: number) => [Routes.identity.user.path, userId] as const,
  notificationCount: [Routes.notification.count.path] as const,
  notifications: [Routes.notification.list.path] as const,
  exchangeRate: [Routes.exchange.rate.path] as const,
  exchangeLimits: [Routes.exchange.limits.path] as const,
  /** The market and the caller's requests; a key per filter set under the one route key. */
  exchangeRequests: [Routes.exchange.requests.path] as const,
  exchangeRequest: (id: number) => [Routes.exchange.request.path, id] as const,
  myRequests: [Routes.exchange.myRequests.path] as const,
  matches: [Routes.exchange.matches.path] as const,
  matchForRequest: (requestId: number) => [Routes.exchange.matchForRequest.path, requestId] as const,
  matchAccounts: (matchId: number) => [Routes.exchange.matchAccounts.path, matchId] as const,
  /** A match's chat (the live channel adds each message it brings to it). */
  chatMessages: (matchId: number) => [Routes.exchange.chatMessages.path, matchId] as const,
  ratingsForMatch: (matchId: number) => [Routes.rating.forMatch.path, matchId] as const,
  transactionHistory: [Routes.exchange.history.path] as const,
  subscriptionInfo: [Routes.subscription.info.path] as const,
  /** Every reading a change to a trade may change: lists, one request or match (any id), the plan's usage, the history. */
  trades: [
    [Routes.exchange.requests.path], [Routes.exchange.myRequests.path], [Routes.exchange.matches.path], [Routes.exchange.limits.path],
    [Routes.exchange.request.path], [Routes.exchange.matchForRequest.path], [Routes.exchange.history.path],
  ] as const,
  signupFailures: (filters: AttemptFilters) => [Routes.audit.signupFailures.path, filters] as const,
  loginFailures: (filters: AttemptFilters) => [Routes.audit.loginFailures.path, filters] as const,
  signupAttempts: (filters: AttemptFilters, page: Page) => [Routes.audit.signupAttempts.path, filters, page] as const,
  loginAttempts: (filters: AttemptFilters, page: Page) => [Routes.audit.loginAttempts.path, filters, page] as const,
  attemptsPerDay: (period: Period) => [Routes.audit.attemptsPerDay.path, period] as const,
  adminChatReads: (page: Page) => [Routes.audit.chatReads.path, page] as const,
  exchangeFunnel: (period: Period) => [Routes.exchange.funnel.path, period] as const,
  verificationRequests: (page: Page) => [Routes.identity.verificationRequests.path, page] as const,
  blockedUsers: [Routes.exchange.blockedUsers.path] as const,
  analytics: [Routes.exchange.analytics.path] as const,
  mySupportRequests: (page: Page) => [Routes.subscription.mySupportRequests.path, page] as const,
  supportQueue: (page: Page) => [Routes.subscription.supportQueue.path, page] as const,
  matchDispute: (matchId: number) => [Routes.exchange.matchDispute.path, matchId] as const,
  disputeQueue: (status: 'open' | 'resolved' | undefined, page: Page) => [Routes.exchange.disputeQueue.path, status ?? 'all', page] as const,
  disputeDetail: (id: number) => [Routes.exchange.disputeDetail.path, id] as const,
  disputeOutcomes: (userId: number) => [Routes.exchange.disputeOutcomes.path, userId] as const,
};
