import { AppError, type ServiceContext } from '@puente/platform';
import type { PaymentProvider } from '../domain/payments.ts';

/** What the subscription routes share: the service, the clock (tests move it past period ends), the provider. */
export interface RouteDeps {
  ctx: ServiceContext;
  now(): Date;
  /** null where payments are not configured (production without Stripe keys or an explicit test mode). */
  payments: PaymentProvider | null;
}

export const PAYMENTS_NOT_CONFIGURED = 'Payments are not configured';

export function paymentsOf(deps: RouteDeps): PaymentProvider {
  if (!deps.payments) throw new AppError(503, 'payments_not_configured', PAYMENTS_NOT_CONFIGURED);
  return deps.payments;
}
