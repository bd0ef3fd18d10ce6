/**
 * POST /api/subscription/test-checkout/confirm, served only in the test payment mode: pays the caller's checkout
 * with a Stripe test card number. 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined (402); 4000 0000
 * 0000 0069 has expired (402 expired_card); any other number is refused (400). An expiry in the past is refused as
 * Stripe refuses it, before any charge (402 expired_card, nothing recorded). A charge's outcome goes through the
 * webhook handler as a signed Stripe-shaped event.
 */
import type { FastifyInstance } from 'fastify';
import { CardMessages, Routes, SubscriptionRefusal, cardExpired, parseCardExpiry } from '@puente/contracts';
import { AppError, fieldInvalid, notFound, requireUser, serve } from '@puente/platform';
import type { TestPayments } from '../domain/test-payments.ts';
import { mayPay } from '../domain/test-subscription-transitions.ts';
import { receiveProviderEvent } from './webhooks.ts';
import type { RouteDeps } from './deps.ts';

export const TEST_CARDS = { succeeds: '4242424242424242', declined: '4000000000000002', expired: '4000000000000069' } as const;
export const CARD_DECLINED = 'Your card was declined.';
export const CARD_INVALID = 'Your card number is incorrect. Use 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined).';

const known: ReadonlySet<string> = new Set(Object.values(TEST_CARDS));

export function testCheckoutRoutes(deps: RouteDeps & { payments: TestPayments }) {
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, Routes.subscription.testCheckoutConfirm, async (request) => {
      const { userId } = requireUser(request);
      const card = request.body.cardNumber.replace(/[\s-]/g, '');
      const checkout = await deps.payments.checkout(userId, request.body.clientSecret);
      if (!checkout) throw notFound('Checkout not found');
      mayPay(checkout);
      if (!known.has(card)) throw fieldInvalid('cardNumber', CARD_INVALID);
      const expiry = request.body.expiry === undefined ? null : parseCardExpiry(request.body.expiry);
      if (expiry && cardExpired(expiry, deps.now())) throw new AppError(402, SubscriptionRefusal.expiredCard, CardMessages.expiryPast);
      const outcome = card === TEST_CARDS.succeeds ? 'paid' : 'declined';
      const delivery = await deps.payments.pay(checkout, outcome, deps.now());
      await receiveProviderEvent(deps, delivery.body, delivery.signature);
      if (card === TEST_CARDS.expired) throw new AppError(402, SubscriptionRefusal.expiredCard, CardMessages.expired);
      if (outcome === 'declined') throw new AppError(402, SubscriptionRefusal.cardDeclined, CARD_DECLINED);
      return { message: 'Payment succeeded: you are on Premium.' };
    });
  };
}
