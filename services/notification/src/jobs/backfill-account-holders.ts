/**
 * The projection of account holders starts full: when this service starts without having taken its snapshot (a new
 * install, or accounts that existed before it ran), it pages through the accounts service's account currencies,
 * then records that it did. Events keep it current from there; a snapshot row never overwrites what an event
 * already brought (a removal's tombstone included). A job, so it retries with backoff while accounts is starting.
 */
import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Routes } from '@puente/contracts';
import { callRoute, defineJob, type ServiceContext } from '@puente/platform';
import { addHolders, ProjectionBackfill } from '../domain/account-holders.ts';

export const BACKFILL_ACCOUNT_HOLDERS = 'backfill-account-holders';
/** The projection's name in projection_backfill. */
export const ACCOUNT_HOLDERS = 'account-holders';
const PAGE = 500;

type Ctx = Pick<ServiceContext, 'orm' | 'callService' | 'logger'>;

/** True when the snapshot has not been taken yet. */
export async function needsAccountHoldersBackfill(em: EntityManager): Promise<boolean> {
  return (await em.count(ProjectionBackfill, { name: ACCOUNT_HOLDERS })) === 0;
}

/** Pages through accounts' snapshot until a short page and records it; returns how many accounts it read. */
export async function backfillAccountHolders(ctx: Ctx): Promise<number> {
  if (!(await needsAccountHoldersBackfill(ctx.orm.em.fork()))) return 0;
  let afterId = 0;
  let rows = 0;
  for (;;) {
    const accounts = await callRoute(ctx, 'accounts', Routes.accounts.accountCurrencies, { afterId, limit: PAGE });
    await addHolders(ctx.orm.em.fork(), accounts);
    rows += accounts.length;
    if (accounts.length < PAGE) break;
    afterId = accounts.at(-1)!.accountId;
  }
  await ctx.orm.em.fork().upsert(ProjectionBackfill, { name: ACCOUNT_HOLDERS, rows, completedAt: new Date() });
  ctx.logger.info({ projection: ACCOUNT_HOLDERS, rows }, 'projection filled from its snapshot');
  return rows;
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
