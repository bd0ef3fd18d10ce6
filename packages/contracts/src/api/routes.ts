/**
 * Every HTTP route of the product, declared once per service (spec section 7, the calls beyond it, the gateway's
 * own and the services' internal ones). `Routes.<service>.<name>` for code that calls or serves one route;
 * `ApiRoutes` for code that reads them all (the gateway, the OpenAPI document, the tests' tables).
 */
import { routeGroup, type ApiRoute } from './route.ts';
import { Message } from './common.ts';
import { HealthResponse } from './health.ts';
import { SessionIdParams, SignedInSessionList } from './devices.ts';
import { IdentityRoutes } from './identity-routes.ts';
import { AccountsRoutes } from './accounts-routes.ts';
import { ExchangeRoutes } from './exchange-routes.ts';
import { NotificationRoutes, RatingRoutes, SubscriptionRoutes } from './engagement-routes.ts';
import { AuditRoutes } from './audit-routes.ts';

/** The routes the gateway answers itself: health, logout and the caller's sessions (it keeps them). */
export const GatewayRoutes = routeGroup('gateway', {
  health: {
    method: 'GET', path: '/api/health', access: 'visitor',
    summary: 'Whether every service is ready: 200 ok, or 503 degraded with the ones that are down.',
    responses: { 200: HealthResponse, 503: HealthResponse },
  },
  logout: {
    method: 'POST', path: '/api/auth/logout', access: 'visitor',
    summary: 'End the session (its cookie no longer works anywhere); 200 also without one.',
    responses: { 200: Message },
  },
  sessions: {
    method: 'GET', path: '/api/auth/sessions', access: 'user',
    summary: "The caller's sessions (the browsers signed in to their account), their own first, marked current.",
    responses: { 200: SignedInSessionList },
  },
  revokeSession: {
    method: 'DELETE', path: '/api/auth/sessions/{id}', access: 'user', params: SessionIdParams,
    summary: "End one of the caller's sessions at once, on every gateway; 404 for an id that is not one of theirs.",
    responses: { 204: null },
  },
});

export const Routes = {
  gateway: GatewayRoutes,
  identity: IdentityRoutes,
  accounts: AccountsRoutes,
  exchange: ExchangeRoutes,
  rating: RatingRoutes,
  notification: NotificationRoutes,
  subscription: SubscriptionRoutes,
  audit: AuditRoutes,
} as const;

/** Every route, in declaration order. */
export const ApiRoutes: readonly ApiRoute[] = Object.values(Routes).flatMap((group) => Object.values(group) as ApiRoute[]);
