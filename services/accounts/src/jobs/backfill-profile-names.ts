/**
 * The profile names start full: when this service starts without having taken their snapshot (a new install, or
 * users who registered before it kept names), it pages through identity's users and fills their names, then records
 * that it did. Events keep them current from there; a snapshot value never overwrites a newer one an event already
 * brought (profileAsOf). A job, so it retries with backoff while identity is still starting.
 */
import { Routes } from '@puente/contracts';
import { projectionBackfill, readSnapshot } from '@puente/platform';
import { setProfileNames } from '../domain/profile-name.ts';

export const backfill = projectionBackfill('backfill-profile-names', {
  'profile-names': (ctx) => readSnapshot(ctx, 'identity', Routes.identity.internalUsers, (u) => u.id, async (users) => {
    const asOf = new Date();
    await setProfileNames(ctx.orm.em.fork(), users.map((u) => ({ userId: u.id, firstName: u.firstName, lastName: u.lastName })), asOf);
  }),
});
