/**
 * GET /api/users/me/login-history: the signed-in user's own login attempts (the account is the caller's, never a
 * parameter), newest first, paginated with X-Total-Count.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { requireUser, serve } from '@puente/platform';
import { loginHistoryOf } from '../domain/personal-data.ts';

export async function loginHistoryRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.audit.ownLoginHistory, async (request, reply) => {
    const { userId } = requireUser(request);
    const [attempts, total] = await loginHistoryOf(request.em, userId, request.query);
    reply.header('x-total-count', String(total));
    return attempts;
  });
}
