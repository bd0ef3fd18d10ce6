/**
 * The payment provider forgets a deleted user's customer (their subscriptions end at once, their saved cards go).
 * Retried while the provider cannot be reached; a job that still fails is kept for an operator (listFailed).
 */
import { z } from 'zod';
import { defineJob } from '@puente/platform';
import type { PaymentProvider } from '../domain/payments.ts';

export const ERASE_PAYMENT_CUSTOMER = 'erase-payment-customer';

export function erasePaymentCustomerJob(payments: () => PaymentProvider | null) {
  return defineJob({
    name: ERASE_PAYMENT_CUSTOMER,
    schema: z.object({ customerId: z.string().min(1) }),
    attempts: 8,
    backoffMs: 30_000,
    async handle({ customerId }, ctx) {
      const provider = payments();
      if (!provider) throw new Error('payments are not configured: the customer cannot be erased at the provider');
      await provider.eraseCustomer(customerId);
      ctx.logger.info({ customerId }, 'a deleted user\'s customer erased at the payment provider');
    },
  });
}
