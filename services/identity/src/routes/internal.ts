/**
 * Routes for other services only (never proxied by the gateway; a service token is required).
 *
 * POST /internal/login-refused { email } — the gateway refused a login with 429 before it reached identity; the
 * refusal still belongs in the login audit trail, so an admin sees the brute force. The email is whatever the
 * client typed (anything that is not a string is recorded as ''); the browser's IP and user agent come as headers,
 * as on every forwarded request. 204.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { clientMeta, loginAttempt, rawEmail, recordFailedAttempt } from '../domain/attempts.ts';
import type { RouteDeps } from './deps.ts';

export async function internalRoutes(app: FastifyInstance, { ctx }: RouteDeps): Promise<void> {
  serve(app, Routes.identity.loginRefused, async (request) => {
    await recordFailedAttempt(ctx, loginAttempt({
      email: rawEmail(request.body), method: 'password', status: 'failed', failureReason: 'rate_limited', ...clientMeta(request),
    }));
  });
}
