/**
 * The directory's dispute outcomes start full: at a start where identity never took the exchange service's snapshot
 * (disputes resolved before identity consumed exchange.dispute.resolved, or a new install), it pages through the
 * resolved disputes and keeps them, then records that it did. Events keep the projection current from there; a
 * dispute both in the snapshot and in an event is kept once (by its id). A job, so it retries with backoff while
 * exchange is still starting.
 */
import { Routes } from '@puente/contracts';
import { projectionBackfill, readSnapshot } from '@puente/platform';
import { keepResolvedDisputes } from '../domain/directory.ts';

export const backfill = projectionBackfill('backfill-projections', {
  resolvedDisputes: (ctx) => readSnapshot(ctx, 'exchange', Routes.exchange.resolvedDisputes, (d) => d.disputeId, async (disputes) => {
    await keepResolvedDisputes(ctx.orm.em.fork(), disputes);
  }),
});
