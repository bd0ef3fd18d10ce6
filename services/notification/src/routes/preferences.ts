/**
 * /api/notifications/preferences: whether the caller gets the email digest of unread notifications (on until they
 * turn it off on their profile). Each user reads and sets their own only.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { requireUser, serve } from '@puente/platform';
import { setEmailDigest, wantsEmailDigest } from '../domain/preferences.ts';

export async function preferenceRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.notification.preferences, async (request) => {
    const { userId } = requireUser(request);
    return { emailDigest: await wantsEmailDigest(request.em, userId) };
  });

  serve(app, Routes.notification.updatePreferences, async (request) => {
    const { userId } = requireUser(request);
    await setEmailDigest(request.em, userId, request.body.emailDigest);
    return { emailDigest: request.body.emailDigest };
  });
}
