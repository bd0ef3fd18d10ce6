/** GET /api/analytics/me: Premium's advanced analytics, the caller's own figures (domain/analytics.ts). */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { requireUser, serve } from '@puente/platform';
import { analyticsOf, assertPremium } from '../domain/analytics.ts';

export async function analyticsRoutes(app: FastifyInstance): Promise<void> {
  /** 401 for a visitor, 403 `premium_required` on the free plan. */
  serve(app, Routes.exchange.analytics, async (request) => {
    const { userId } = requireUser(request);
    await assertPremium(request.em, userId);
    return analyticsOf(request.em, userId);
  });
}
