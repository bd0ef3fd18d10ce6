/**
 * GET /internal/personal-data/notifications?userId=7 (identity only; never proxied by the gateway): the user's
 * notifications and preference, for their data download (identity composes it for the signed-in user only).
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { personalDataOf } from '../domain/personal-data.ts';

export async function personalDataRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.notification.personalData, async (request) => personalDataOf(request.em, request.query.userId));
}
