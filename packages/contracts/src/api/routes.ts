/**
 * Every HTTP call of the product (spec section 7, plus the gateway's /api/health) with the service that owns it.
 * Path templates name their parameters in braces as the spec writes them: `/api/bank-accounts/{id}`.
 */
import { z } from 'zod';

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

export type ApiRoute = { method: HttpMethod; path: string; service: RouteOwner };

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

/** Every call: method, path template and owning service. */
export const ApiRoutes = [
  // identity
  { method: 'GET', path: Paths.verifyReferral, service: 'identity' },
  { method: 'GET', path: Paths.currentUser, service: 'identity' },
  { method: 'POST', path: Paths.login, service: 'identity' },
  { method: 'GET', path: Paths.googleLogin, service: 'identity' },
  { method: 'GET', path: Paths.headerLogin, service: 'identity' },
  { method: 'POST', path: Paths.logout, service: 'identity' },
  { method: 'POST', path: Paths.signupRequest, service: 'identity' },
  { method: 'POST', path: Paths.signupVerify, service: 'identity' },
  { method: 'GET', path: Paths.user, service: 'identity' },
  { method: 'POST', path: Paths.verification, service: 'identity' },
  { method: 'GET', path: Paths.referralCode, service: 'identity' },
  { method: 'GET', path: Paths.referralList, service: 'identity' },
  { method: 'GET', path: Paths.adminUsers, service: 'identity' },
  // accounts
  { method: 'GET', path: Paths.bankAccounts, service: 'accounts' },
  { method: 'POST', path: Paths.bankAccounts, service: 'accounts' },
  { method: 'PUT', path: Paths.bankAccount, service: 'accounts' },
  { method: 'DELETE', path: Paths.bankAccount, service: 'accounts' },
  // exchange
  { method: 'GET', path: Paths.exchangeRate, service: 'exchange' },
  { method: 'GET', path: Paths.exchangeRequests, service: 'exchange' },
  { method: 'GET', path: Paths.exchangeRequest, service: 'exchange' },
  { method: 'GET', path: Paths.myExchangeRequests, service: 'exchange' },
  { method: 'POST', path: Paths.exchangeRequests, service: 'exchange' },
  { method: 'PATCH', path: Paths.completeExchangeRequest, service: 'exchange' },
  { method: 'PATCH', path: Paths.cancelExchangeRequest, service: 'exchange' },
  { method: 'POST', path: Paths.notifyExchangeRequest, service: 'exchange' },
  { method: 'GET', path: Paths.exchangeMatchForRequest, service: 'exchange' },
  { method: 'POST', path: Paths.exchangeMatches, service: 'exchange' },
  { method: 'PUT', path: Paths.confirmExchangeMatch, service: 'exchange' },
  { method: 'PUT', path: Paths.completeExchangeMatch, service: 'exchange' },
  { method: 'GET', path: Paths.exchangeMatchAccounts, service: 'exchange' },
  { method: 'GET', path: Paths.exchangeMatches, service: 'exchange' },
  { method: 'GET', path: Paths.transactionHistory, service: 'exchange' },
  // rating
  { method: 'GET', path: Paths.ratingsForMatch, service: 'rating' },
  { method: 'GET', path: Paths.ratingsForUser, service: 'rating' },
  { method: 'POST', path: Paths.ratings, service: 'rating' },
  // notification
  { method: 'GET', path: Paths.notifications, service: 'notification' },
  { method: 'GET', path: Paths.notificationCount, service: 'notification' },
  { method: 'PUT', path: Paths.readAllNotifications, service: 'notification' },
  { method: 'PUT', path: Paths.readNotification, service: 'notification' },
  // subscription
  { method: 'GET', path: Paths.subscriptionInfo, service: 'subscription' },
  { method: 'POST', path: Paths.createSubscription, service: 'subscription' },
  { method: 'POST', path: Paths.cancelSubscription, service: 'subscription' },
  // audit
  { method: 'GET', path: Paths.signupFailures, service: 'audit' },
  { method: 'GET', path: Paths.loginFailures, service: 'audit' },
  { method: 'GET', path: Paths.signupAttempts, service: 'audit' },
  { method: 'GET', path: Paths.loginAttempts, service: 'audit' },
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
