/**
 * Every HTTP route of the product, declared once per service (spec section 7, the calls beyond it, the gateway's
 * own and the services' internal ones). `Routes.<service>.<name>` for code that calls or serves one route;
 * `ApiRoutes` for code that reads them all (the gateway, the OpenAPI document, the tests' tables).
 */
import { routeGroup, type ApiRoute } from './route.ts';
import { Message } from './common.ts';
import { HealthResponse } from './health.ts';
import { IdentityRoutes } from './identity-routes.ts';
import { AccountsRoutes } from './accounts-routes.ts';
import { ExchangeRoutes } from './exchange-routes.ts';
import { NotificationRoutes, RatingRoutes, SubscriptionRoutes } from './engagement-routes.ts';
import { AuditRoutes } from './audit-routes.ts';

/** The routes the gateway answers itself. */
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
