import { PAYMENTS_NOT_CONFIGURED, SubscriptionRefusal, type PaymentsMode } from '@puente/contracts';
import { AppError, type ServiceContext } from '@puente/platform';
import type { PaymentProvider } from '../domain/payments.ts';

/** What the subscription routes share: the service, the clock (tests move it past period ends), the provider. */
export interface RouteDeps {
  ctx: ServiceContext;
  now(): Date;
  /** How premium is paid: Stripe, the test payment mode, or 'unavailable'. */
  mode: PaymentsMode;
  /** null where payments are not configured (production without Stripe keys or an explicit test mode). */
  payments: PaymentProvider | null;
}

/** The provider; without one, 503 `payments_not_configured` before anything is written. */
export function paymentsOf(deps: RouteDeps): PaymentProvider {
  if (!deps.payments) throw new AppError(503, SubscriptionRefusal.paymentsNotConfigured, PAYMENTS_NOT_CONFIGURED);
  return deps.payments;
}
