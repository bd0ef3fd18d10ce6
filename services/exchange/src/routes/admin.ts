/**
 * GET /api/admin/exchange-funnel: the admin page's funnel over a period (admins only: the declaration checks who
 * asks, 401 for visitors and 403 for other users, and validates the period).
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { funnelOf } from '../domain/funnel.ts';

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.exchange.funnel, async (request) => funnelOf(request.em, request.query));
}
