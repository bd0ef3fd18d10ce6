/**
 * The routes the k6 scripts call, by their name in @puente/contracts (`Routes.<service>.<name>`): k6 runs a
 * script's own files, not the npm workspaces, so the method and path are repeated here once, and the smoke
 * harness's test checks each against the contract's ApiRoutes. The name is also the `route` tag of every request
 * (thresholds per route: `http_req_duration{route:exchange.createMatch}`). Plain data, no k6 import.
 */
export const ROUTES = {
  'gateway.health': ['GET', '/api/health'],
  'gateway.logout': ['POST', '/api/auth/logout'],
  'gateway.sessions': ['GET', '/api/auth/sessions'],
  'identity.verifyReferral': ['GET', '/api/auth/verify-referral/{code}'],
  'identity.currentUser': ['GET', '/api/auth/user'],
  'identity.login': ['POST', '/api/auth/login'],
  'identity.signupRequest': ['POST', '/api/signup/request'],
  'identity.signupVerify': ['POST', '/api/signup/verify'],
  'identity.user': ['GET', '/api/users/{id}'],
  'identity.referralCode': ['GET', '/api/referral/code'],
  'identity.referralList': ['GET', '/api/referral/list'],
  'identity.directory': ['GET', '/api/admin/users'],
  'accounts.list': ['GET', '/api/bank-accounts'],
  'accounts.create': ['POST', '/api/bank-accounts'],
  'exchange.rate': ['GET', '/api/exchange-rate'],
  'exchange.requests': ['GET', '/api/exchange-requests'],
  'exchange.request': ['GET', '/api/exchange-requests/{id}'],
  'exchange.limits': ['GET', '/api/exchange-requests/limits'],
  'exchange.myRequests': ['GET', '/api/exchange-requests/user'],
  'exchange.createRequest': ['POST', '/api/exchange-requests'],
  'exchange.matchForRequest': ['GET', '/api/exchange-matches/request/{requestId}'],
  'exchange.createMatch': ['POST', '/api/exchange-matches'],
  'exchange.confirmMatch': ['PUT', '/api/exchange-matches/{id}/confirm'],
  'exchange.completeMatch': ['PUT', '/api/exchange-matches/{id}/complete'],
  'exchange.matchAccounts': ['GET', '/api/exchange-matches/{id}/accounts'],
  'exchange.matches': ['GET', '/api/exchange-matches'],
  'exchange.history': ['GET', '/api/transaction-history'],
  'rating.forMatch': ['GET', '/api/ratings/exchange/{exchangeMatchId}'],
  'rating.forUser': ['GET', '/api/ratings/user/{userId}'],
  'rating.create': ['POST', '/api/ratings'],
  'notification.list': ['GET', '/api/notifications'],
  'notification.count': ['GET', '/api/notifications/count'],
  'notification.preferences': ['GET', '/api/notifications/preferences'],
  'subscription.info': ['GET', '/api/subscription/info'],
} as const satisfies Record<string, readonly [string, string]>;

export type RouteName = keyof typeof ROUTES;

/** The path of `route` with its `{param}`s filled in. */
export function pathOf(route: RouteName, params: Record<string, string | number> = {}): string {
  return ROUTES[route][1].replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}
