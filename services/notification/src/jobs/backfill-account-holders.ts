/**
 * The projection of account holders starts full: when this service starts without having taken its snapshot (a new
 * install, or accounts that existed before it ran), it pages through the accounts service's account currencies,
 * then records that it did. Events keep it current from there; a snapshot row never overwrites what an event
 * already brought (a removal's tombstone included). A job, so it retries with backoff while accounts is starting.
 */
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Routes } from '@puente/contracts';
import { backfillOnce, callRoute, defineJob, pageThrough, projectionsToBackfill, type ServiceContext } from '@puente/platform';
import { addHolders } from '../domain/account-holders.ts';

export const BACKFILL_ACCOUNT_HOLDERS = 'backfill-account-holders';
/** The projection's name in projection_backfill. */
export const ACCOUNT_HOLDERS = 'account-holders';
const PAGE = 500;

type Ctx = Pick<ServiceContext, 'orm' | 'callService' | 'logger'>;

/** True when the snapshot has not been taken yet. */
export async function needsAccountHoldersBackfill(em: EntityManager): Promise<boolean> {
  return (await projectionsToBackfill(em, [ACCOUNT_HOLDERS])).length > 0;
}

/** Pages through accounts' snapshot until a short page and records it; answers how many accounts it read. */
export async function backfillAccountHolders(ctx: Ctx): Promise<number> {
  return await backfillOnce(ctx, ACCOUNT_HOLDERS, () => pageThrough(
    { size: PAGE, fetch: (afterId) => callRoute(ctx, 'accounts', Routes.accounts.accountCurrencies, { afterId, limit: PAGE }), idOf: (a) => a.accountId },
    (accounts) => addHolders(ctx.orm.em.fork(), accounts),
  )) ?? 0;
}

export const backfillAccountHoldersJob = defineJob({
  name: BACKFILL_ACCOUNT_HOLDERS,
  schema: z.object({}),
  attempts: 10,
  backoffMs: 2_000,
  timeoutMs: 10 * 60_000,
  async handle(_data, ctx) {
    await backfillAccountHolders(ctx);
  },
});
