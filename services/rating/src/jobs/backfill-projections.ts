/**
 * The rater projection starts full: when this service starts without having taken its snapshot (a new install, or
 * users who registered before it ran), it pages through identity's users and fills the first names, then records
 * that it did. Events keep it current from there; a snapshot value never overwrites a newer one an event already
 * brought (profileAsOf). A job, so it retries with backoff while identity is still starting.
 */
import { Routes } from '@puente/contracts';
import { projectionBackfill, readSnapshot } from '@puente/platform';
import { setRaterNames } from '../domain/rater.ts';

export const backfill = projectionBackfill('backfill-projections', {
  users: (ctx) => readSnapshot(ctx, 'identity', Routes.identity.internalUsers, (u) => u.id, async (users) => {
    const asOf = new Date();
    await setRaterNames(ctx.orm.em.fork(), users.map((u) => ({ userId: u.id, firstName: u.firstName })), asOf);
  }),
});
