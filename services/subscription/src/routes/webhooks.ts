/**
 * POST /api/webhooks/stripe: Stripe's events about subscriptions and payments. Public (Stripe calls it; the gateway
 * exempts it from the Origin check), so nothing is trusted before the signature over the raw body checks out: a
 * bad one is a 400 that changes nothing. Each event applies once (its id), in one transaction with the events it
 * publishes.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { badRequest, serve } from '@puente/platform';
import { applyProviderEvent, type Applied } from '../domain/billing.ts';
import { paymentsOf, type RouteDeps } from './deps.ts';

export const INVALID_SIGNATURE = 'Invalid webhook signature';

/** Verifies and applies one webhook delivery (the test payment mode hands its own events in here too). */
export async function receiveProviderEvent(deps: RouteDeps, rawBody: Buffer, signature: string): Promise<Applied> {
  let event;
  try {
    event = paymentsOf(deps).verifyEvent(rawBody, signature, deps.now());
  } catch (err) {
    deps.ctx.logger.warn({ err: (err as Error).message }, 'refused a webhook with a bad signature');
    throw badRequest(INVALID_SIGNATURE);
  }
  const applied = await deps.ctx.change((tx) => applyProviderEvent(tx, event));
  deps.ctx.logger.info({ eventId: event.id, type: event.type, applied }, 'payment provider event');
  return applied;
}

export function webhookRoutes(deps: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    // The signature is over the exact bytes Stripe sent: this route alone keeps JSON bodies raw.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    serve(app, Routes.subscription.stripeWebhook, async (request) => {
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw badRequest(INVALID_SIGNATURE);
      await receiveProviderEvent(deps, request.body, signature);
      return { message: 'Received' };
    });
  };
}
