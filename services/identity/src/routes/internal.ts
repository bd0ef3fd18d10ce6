/**
 * Routes for other services only (never proxied by the gateway; a service token is required).
 *
 * POST /internal/login-refused { email } — the gateway refused a login with 429 before it reached identity; the
 * refusal still belongs in the login audit trail, so an admin sees the brute force. The email is whatever the
 * client typed (anything that is not a string is recorded as ''); the browser's IP and user agent come as headers,
 * as on every forwarded request. 204.
 *
 * GET /internal/users[?ids=1,2|?afterId&limit] (exchange, notification) — the User, email included: those of `ids`
 * that exist, or a snapshot page (id > afterId, at most limit), in id order either way. Only real accounts: a
 * sign-up still waiting for its token is a PendingSignup (its own table), never a User.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { clientMeta, loginAttempt, rawEmail, recordFailedAttempt } from '../domain/attempts.ts';
import { User } from '../domain/user.ts';
import { internalUserView } from '../domain/views.ts';
import type { RouteDeps } from './deps.ts';

export async function internalRoutes(app: FastifyInstance, { ctx }: RouteDeps): Promise<void> {
  serve(app, Routes.identity.loginRefused, async (request) => {
    await recordFailedAttempt(ctx, loginAttempt({
      email: rawEmail(request.body), method: 'password', status: 'failed', failureReason: 'rate_limited', ...clientMeta(request),
    }));
  });

  serve(app, Routes.identity.internalUsers, async (request) => {
    const { ids, afterId, limit } = request.query;
    // By ids: at most 500, so no limit; unknown ids are simply absent (the caller sees which came back).
    const users = ids
      ? await request.em.find(User, { id: { $in: ids } }, { orderBy: { id: 'asc' } })
      : await request.em.find(User, { id: { $gt: afterId } }, { orderBy: { id: 'asc' }, limit });
    return users.map(internalUserView);
  });
}
