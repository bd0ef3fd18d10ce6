/**
 * POST /api/subscription/test-checkout/confirm, served only in the test payment mode: pays the caller's checkout
 * with a Stripe test card number. 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined (402); any other
 * number is refused (400). The outcome goes through the webhook handler as a signed Stripe-shaped event.
 */
import type { FastifyInstance } from 'fastify';
import { Routes, SubscriptionRefusal } from '@puente/contracts';
import { AppError, fieldInvalid, notFound, requireUser, serve } from '@puente/platform';
import type { TestPayments } from '../domain/test-payments.ts';
import { mayPay } from '../domain/test-subscription-transitions.ts';
import { receiveProviderEvent } from './webhooks.ts';
import type { RouteDeps } from './deps.ts';

export const TEST_CARDS = { succeeds: '4242424242424242', declined: '4000000000000002' } as const;
export const CARD_DECLINED = 'Your card was declined.';
export const CARD_INVALID = 'Your card number is incorrect. Use 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined).';

export function testCheckoutRoutes(deps: RouteDeps & { payments: TestPayments }) {
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, Routes.subscription.testCheckoutConfirm, async (request) => {
      const { userId } = requireUser(request);
      const card = request.body.cardNumber.replace(/[\s-]/g, '');
      const checkout = await deps.payments.checkout(userId, request.body.clientSecret);
      if (!checkout) throw notFound('Checkout not found');
      mayPay(checkout);
      if (card !== TEST_CARDS.succeeds && card !== TEST_CARDS.declined) throw fieldInvalid('cardNumber', CARD_INVALID);
      const outcome = card === TEST_CARDS.succeeds ? 'paid' : 'declined';
      const delivery = await deps.payments.pay(checkout, outcome, deps.now());
      await receiveProviderEvent(deps, delivery.body, delivery.signature);
      if (outcome === 'declined') throw new AppError(402, SubscriptionRefusal.cardDeclined, CARD_DECLINED);
      return { message: 'Payment succeeded: you are on Premium.' };
    });
  };
}
