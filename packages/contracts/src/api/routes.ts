/**
 * Every HTTP call of the product (spec section 7, the calls beyond it that identity serves, and the gateway's
 * /api/health) with the service that owns it and the request schemas it validates with. Path templates name their
 * parameters in braces as the spec writes them: `/api/bank-accounts/{id}`.
 */
import { z } from 'zod';
import { IdParams } from './common.ts';
import {
  ChangePasswordRequest, ForgotPasswordRequest, IdentityPaths, LoginRequest, ReferralCodeParams, ResetPasswordRequest,
  SignupRequest, SignupVerifyRequest, UserIdParams, UserProfileUpdate, VerificationRequestIdParams,
  VerificationTypeParams,
} from './identity.ts';
import { BankAccountCreate, BankAccountUpdate } from './accounts.ts';
import {
  ExchangeMatchCreate, ExchangeMatchIdParams, ExchangeRequestCreate, ExchangeRequestIdParams, MatchesByRequestParams,
} from './exchange.ts';
import { RatingCreate, RatingsByMatchParams, RatingsByUserParams } from './rating.ts';
import { AttemptsQuery, FailureStatsQuery } from './audit.ts';

export const HttpMethod = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
export type HttpMethod = z.infer<typeof HttpMethod>;

export const RouteOwner = z.enum([
  'identity',
  'accounts',
  'exchange',
  'rating',
  'notification',
  'subscription',
  'audit',
  'gateway',
]);
export type RouteOwner = z.infer<typeof RouteOwner>;

/**
 * One call. `body`, `params` and `query` are the schemas the owner validates the JSON body, path parameters and
 * query with (400 when they fail); absent where the call takes none, or is a browser navigation that redirects.
 */
export type ApiRoute = {
  method: HttpMethod;
  path: string;
  service: RouteOwner;
  body?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
};

/** Path templates by name, for clients (fill them with `fillPath`). */
export const Paths = {
  // identity
  verifyReferral: '/api/auth/verify-referral/{code}',
  currentUser: '/api/auth/user',
  login: '/api/auth/login',
  googleLogin: '/api/auth/google',
  headerLogin: '/api/login',
  logout: '/api/auth/logout',
  signupRequest: '/api/signup/request',
  signupVerify: '/api/signup/verify',
  user: '/api/users/{id}',
  verification: '/api/users/verification/{type}',
  referralCode: '/api/referral/code',
  referralList: '/api/referral/list',
  adminUsers: '/api/admin/users',
  // identity, beyond the spec
  forgotPassword: IdentityPaths.forgotPassword,
  resetPassword: IdentityPaths.resetPassword,
  changePassword: IdentityPaths.changePassword,
  googleCallback: IdentityPaths.googleCallback,
  adminVerificationRequests: IdentityPaths.adminVerificationRequests,
  approveVerificationRequest: IdentityPaths.approveVerificationRequest,
  rejectVerificationRequest: IdentityPaths.rejectVerificationRequest,
  // accounts
  bankAccounts: '/api/bank-accounts',
  bankAccount: '/api/bank-accounts/{id}',
  // exchange
  exchangeRate: '/api/exchange-rate',
  exchangeRequests: '/api/exchange-requests',
  exchangeRequest: '/api/exchange-requests/{id}',
  myExchangeRequests: '/api/exchange-requests/user',
  completeExchangeRequest: '/api/exchange-requests/{id}/complete',
  cancelExchangeRequest: '/api/exchange-requests/{id}/cancel',
  notifyExchangeRequest: '/api/exchange-requests/{id}/notify',
  exchangeMatches: '/api/exchange-matches',
  exchangeMatchForRequest: '/api/exchange-matches/request/{requestId}',
  confirmExchangeMatch: '/api/exchange-matches/{id}/confirm',
  completeExchangeMatch: '/api/exchange-matches/{id}/complete',
  exchangeMatchAccounts: '/api/exchange-matches/{id}/accounts',
  transactionHistory: '/api/transaction-history',
  // rating
  ratings: '/api/ratings',
  ratingsForMatch: '/api/ratings/exchange/{exchangeMatchId}',
  ratingsForUser: '/api/ratings/user/{userId}',
  // notification
  notifications: '/api/notifications',
  notificationCount: '/api/notifications/count',
  readAllNotifications: '/api/notifications/read-all',
  readNotification: '/api/notifications/{id}/read',
  // subscription
  subscriptionInfo: '/api/subscription/info',
  createSubscription: '/api/create-subscription',
  cancelSubscription: '/api/cancel-subscription',
  // audit
  signupFailures: '/api/admin/signup-failures',
  loginFailures: '/api/admin/login-failures',
  signupAttempts: '/api/admin/signup-attempts',
  loginAttempts: '/api/admin/login-attempts',
  // gateway
  health: '/api/health',
} as const;
export type PathName = keyof typeof Paths;

/** Every call: method, path template, owning service and request schemas. */
export const ApiRoutes = [
  // identity
  { method: 'GET', path: Paths.verifyReferral, service: 'identity', params: ReferralCodeParams },
  { method: 'GET', path: Paths.currentUser, service: 'identity' },
  { method: 'POST', path: Paths.login, service: 'identity', body: LoginRequest },
  { method: 'GET', path: Paths.googleLogin, service: 'identity' },
  { method: 'GET', path: Paths.headerLogin, service: 'identity' },
  { method: 'POST', path: Paths.logout, service: 'identity' },
  { method: 'POST', path: Paths.signupRequest, service: 'identity', body: SignupRequest },
  { method: 'POST', path: Paths.signupVerify, service: 'identity', body: SignupVerifyRequest },
  { method: 'GET', path: Paths.user, service: 'identity', params: UserIdParams },
  { method: 'POST', path: Paths.verification, service: 'identity', params: VerificationTypeParams },
  { method: 'GET', path: Paths.referralCode, service: 'identity' },
  { method: 'GET', path: Paths.referralList, service: 'identity' },
  { method: 'GET', path: Paths.adminUsers, service: 'identity' },
  // identity, beyond the spec
  { method: 'PATCH', path: Paths.currentUser, service: 'identity', body: UserProfileUpdate },
  { method: 'POST', path: Paths.forgotPassword, service: 'identity', body: ForgotPasswordRequest },
  { method: 'POST', path: Paths.resetPassword, service: 'identity', body: ResetPasswordRequest },
  { method: 'POST', path: Paths.changePassword, service: 'identity', body: ChangePasswordRequest },
  { method: 'GET', path: Paths.googleCallback, service: 'identity' },
  { method: 'GET', path: Paths.adminVerificationRequests, service: 'identity' },
  { method: 'POST', path: Paths.approveVerificationRequest, service: 'identity', params: VerificationRequestIdParams },
  { method: 'POST', path: Paths.rejectVerificationRequest, service: 'identity', params: VerificationRequestIdParams },
  // accounts
  { method: 'GET', path: Paths.bankAccounts, service: 'accounts' },
  { method: 'POST', path: Paths.bankAccounts, service: 'accounts', body: BankAccountCreate },
  { method: 'PUT', path: Paths.bankAccount, service: 'accounts', params: IdParams, body: BankAccountUpdate },
  { method: 'DELETE', path: Paths.bankAccount, service: 'accounts', params: IdParams },
  // exchange
  { method: 'GET', path: Paths.exchangeRate, service: 'exchange' },
  { method: 'GET', path: Paths.exchangeRequests, service: 'exchange' },
  { method: 'GET', path: Paths.exchangeRequest, service: 'exchange', params: ExchangeRequestIdParams },
  { method: 'GET', path: Paths.myExchangeRequests, service: 'exchange' },
  { method: 'POST', path: Paths.exchangeRequests, service: 'exchange', body: ExchangeRequestCreate },
  { method: 'PATCH', path: Paths.completeExchangeRequest, service: 'exchange', params: ExchangeRequestIdParams },
  { method: 'PATCH', path: Paths.cancelExchangeRequest, service: 'exchange', params: ExchangeRequestIdParams },
  { method: 'POST', path: Paths.notifyExchangeRequest, service: 'exchange', params: ExchangeRequestIdParams },
  { method: 'GET', path: Paths.exchangeMatchForRequest, service: 'exchange', params: MatchesByRequestParams },
  { method: 'POST', path: Paths.exchangeMatches, service: 'exchange', body: ExchangeMatchCreate },
  { method: 'PUT', path: Paths.confirmExchangeMatch, service: 'exchange', params: ExchangeMatchIdParams },
  { method: 'PUT', path: Paths.completeExchangeMatch, service: 'exchange', params: ExchangeMatchIdParams },
  { method: 'GET', path: Paths.exchangeMatchAccounts, service: 'exchange', params: ExchangeMatchIdParams },
  { method: 'GET', path: Paths.exchangeMatches, service: 'exchange' },
  { method: 'GET', path: Paths.transactionHistory, service: 'exchange' },
  // rating
  { method: 'GET', path: Paths.ratingsForMatch, service: 'rating', params: RatingsByMatchParams },
  { method: 'GET', path: Paths.ratingsForUser, service: 'rating', params: RatingsByUserParams },
  { method: 'POST', path: Paths.ratings, service: 'rating', body: RatingCreate },
  // notification
  { method: 'GET', path: Paths.notifications, service: 'notification' },
  { method: 'GET', path: Paths.notificationCount, service: 'notification' },
  { method: 'PUT', path: Paths.readAllNotifications, service: 'notification' },
  { method: 'PUT', path: Paths.readNotification, service: 'notification', params: IdParams },
  // subscription
  { method: 'GET', path: Paths.subscriptionInfo, service: 'subscription' },
  { method: 'POST', path: Paths.createSubscription, service: 'subscription' },
  { method: 'POST', path: Paths.cancelSubscription, service: 'subscription' },
  // audit
  { method: 'GET', path: Paths.signupFailures, service: 'audit', query: FailureStatsQuery },
  { method: 'GET', path: Paths.loginFailures, service: 'audit', query: FailureStatsQuery },
  { method: 'GET', path: Paths.signupAttempts, service: 'audit', query: AttemptsQuery },
  { method: 'GET', path: Paths.loginAttempts, service: 'audit', query: AttemptsQuery },
  // gateway
  { method: 'GET', path: Paths.health, service: 'gateway' },
] as const satisfies readonly ApiRoute[];

/** The parameter names of a path template: `ParamNames<'/api/users/{id}'>` is `'id'`. */
export type ParamNames<T extends string> = T extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/**
 * A concrete path from a template: `fillPath(Paths.user, { id: 7 })` is `/api/users/7`. Values are URI-encoded;
 * a missing value throws.
 */
export function fillPath<T extends string>(template: T, params: Record<ParamNames<T>, string | number>): string {
  const values: Record<string, string | number | undefined> = params;
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`fillPath: no value for {${name}} in ${template}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The route a concrete request path matches (templates' `{param}` segments match one segment; a literal segment
 * wins over a parameter, so `/api/exchange-requests/user` is not `/api/exchange-requests/{id}`).
 */
export function findRoute(method: string, path: string): ApiRoute | undefined {
  const segments = path.split('?')[0]?.split('/') ?? [];
  let best: { route: ApiRoute; literals: number } | undefined;
  for (const route of ApiRoutes) {
    if (route.method !== method.toUpperCase()) continue;
    const templateSegments = route.path.split('/');
    if (templateSegments.length !== segments.length) continue;
    let literals = 0;
    const matches = templateSegments.every((segment, i) => {
      if (/^\{\w+\}$/.test(segment)) return (segments[i] ?? '') !== '';
      literals += 1;
      return segment === segments[i];
    });
    if (matches && (best === undefined || literals > best.literals)) best = { route, literals };
  }
  return best?.route;
}

/**
 * The top-level field names of a request schema: the keys of its object, through refinements, transforms and
 * preprocessing; [] when it is not an object. Tests use it to send each field hostile values.
 */
export function requestFields(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) {
    const inner = requestFields(schema.in as z.ZodType);
    return inner.length > 0 ? inner : requestFields(schema.out as z.ZodType);
  }
  return [];
}
