/**
 * Routes for identity only (never proxied by the gateway; a service token is required), for a user's data:
 *
 * GET /internal/personal-data/trades?userId=7 — their requests, matches, completed exchanges, blocks, chat messages
 * and disputes, for their data download (identity composes it for the signed-in user only).
 *
 * GET /internal/trades-in-progress?userId=7 — how many of their matches are pending or confirmed: identity refuses to
 * delete the account while any is (a partner is waiting on them, or has their bank details to pay).
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { matchesInProgress, personalDataOf } from '../domain/personal-data.ts';

export async function personalDataRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.exchange.personalData, async (request) => personalDataOf(request.em, request.query.userId));
  serve(app, Routes.exchange.tradesInProgress, async (request) => ({ matchesInProgress: await matchesInProgress(request.em, request.query.userId) }));
}
