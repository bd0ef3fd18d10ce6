import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { AppError, serve } from '@puente/platform';
import { newestRate } from '../domain/exchange-rate.ts';
import { rateNumber } from '../domain/rate-value.ts';

/**
 * GET /api/exchange-rate, for anyone: the newest stored rate. It never asks the provider (the refresh job does), so
 * a slow or failing provider never slows a request.
 */
export async function exchangeRateRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.exchange.rate, async (request) => {
    const newest = await newestRate(request.em);
    // The service stores a rate at start before it takes traffic; only a table emptied by hand gets here.
    if (!newest) throw new AppError(503, 'rate_unavailable', 'The exchange rate is not available right now.');
    return { gbpToClp: rateNumber(newest.rate), lastUpdated: newest.fetchedAt.toISOString() };
  });
}
