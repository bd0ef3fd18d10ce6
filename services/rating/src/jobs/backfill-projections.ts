/**
 * The rater projection starts full: when this service starts without having taken its snapshot (a new install, or
 * users who registered before it ran), it pages through identity's users and fills the first names, then records
 * that it did. Events keep it current from there; a snapshot value never overwrites a newer one an event already
 * brought (profileAsOf). A job, so it retries with backoff while identity is still starting.
 */
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Routes } from '@puente/contracts';
import { backfillOnce, callRoute, defineJob, pageThrough, projectionsToBackfill, type ServiceContext } from '@puente/platform';
import { setRaterNames } from '../domain/rater.ts';

export const BACKFILL_PROJECTIONS = 'backfill-projections';
export const PROJECTIONS = ['users'] as const;
const PAGE = 500;

type Ctx = Pick<ServiceContext, 'orm' | 'callService' | 'logger'>;

const fills = {
  users: (ctx: Ctx) => pageThrough(
    { size: PAGE, fetch: (afterId) => callRoute(ctx, 'identity', Routes.identity.internalUsers, { afterId, limit: PAGE }), idOf: (u) => u.id },
    async (users) => {
      const asOf = new Date();
      await setRaterNames(ctx.orm.em.fork(), users.map((u) => ({ userId: u.id, firstName: u.firstName })), asOf);
    },
  ),
} satisfies Record<(typeof PROJECTIONS)[number], (ctx: Ctx) => Promise<number>>;

/** The projections whose snapshot was never taken. */
export const pendingProjections = (em: EntityManager) => projectionsToBackfill(em, PROJECTIONS);

export async function backfillProjections(ctx: Ctx): Promise<void> {
  for (const name of PROJECTIONS) await backfillOnce(ctx, name, () => fills[name](ctx));
}

export const backfillProjectionsJob = defineJob({
  name: BACKFILL_PROJECTIONS,
  schema: z.object({}),
  attempts: 10,
  backoffMs: 2_000,
  timeoutMs: 10 * 60_000,
  async handle(_data, ctx) {
    await backfillProjections(ctx);
  },
});
