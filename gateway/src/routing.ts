/**
 * Which service owns which /api path: the gateway proxies by longest matching prefix and strips `/api`
 * (`/api/bank-accounts/3` → accounts `/bank-accounts/3`). docs/architecture.md shows the same table.
 */
import type { ServiceName } from '@puente/contracts';

export const routingTable: ReadonlyArray<{ prefix: string; service: ServiceName }> = [
  { prefix: '/api/auth', service: 'identity' },
  { prefix: '/api/login', service: 'identity' },
  { prefix: '/api/signup', service: 'identity' },
  { prefix: '/api/users', service: 'identity' },
  { prefix: '/api/referral', service: 'identity' },
  { prefix: '/api/admin/users', service: 'identity' },
  { prefix: '/api/admin/verification-requests', service: 'identity' },
  { prefix: '/api/bank-accounts', service: 'accounts' },
  { prefix: '/api/exchange-rate', service: 'exchange' },
  { prefix: '/api/exchange-requests', service: 'exchange' },
  { prefix: '/api/exchange-matches', service: 'exchange' },
  { prefix: '/api/transaction-history', service: 'exchange' },
  { prefix: '/api/ratings', service: 'rating' },
  { prefix: '/api/notifications', service: 'notification' },
  { prefix: '/api/subscription', service: 'subscription' },
  { prefix: '/api/create-subscription', service: 'subscription' },
  { prefix: '/api/cancel-subscription', service: 'subscription' },
  { prefix: '/api/webhooks/stripe', service: 'subscription' },
  { prefix: '/api/admin/signup-attempts', service: 'audit' },
  { prefix: '/api/admin/login-attempts', service: 'audit' },
  { prefix: '/api/admin/signup-failures', service: 'audit' },
  { prefix: '/api/admin/login-failures', service: 'audit' },
];

/** The service that owns a path, or undefined (the gateway answers those itself, or 404). */
export function ownerOf(path: string): ServiceName | undefined {
  let best: { prefix: string; service: ServiceName } | undefined;
  for (const r of routingTable) {
    if ((path === r.prefix || path.startsWith(`${r.prefix}/`) || path.startsWith(`${r.prefix}?`)) && (!best || r.prefix.length > best.prefix.length)) best = r;
  }
  return best?.service;
}

/**
 * A request's path as the services' routers will read it, for the gateway's own checks (rate limits, CSRF
 * exemption): no query, percent-decoding undone, no trailing slash. `/api/auth/logi%6E/` is `/api/auth/login`.
 */
export function normalizePath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch { /* a malformed escape: keep it as sent (the router answers 400 or 404) */ }
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') || '/' : decoded;
}
