/**
 * The projection of account holders starts full: when this service starts without having taken its snapshot (a new
 * install, or accounts that existed before it ran), it pages through the accounts service's account currencies,
 * then records that it did. Events keep it current from there; a snapshot row never overwrites what an event
 * already brought (a removal's tombstone included). A job, so it retries with backoff while accounts is starting.
 */
import { Routes } from '@puente/contracts';
import { projectionBackfill, readSnapshot } from '@puente/platform';
import { addHolders } from '../domain/account-holders.ts';

export const BACKFILL_ACCOUNT_HOLDERS = 'backfill-account-holders';
/** The projection's name in projection_backfill. */
export const ACCOUNT_HOLDERS = 'account-holders';

export const backfill = projectionBackfill(BACKFILL_ACCOUNT_HOLDERS, {
  [ACCOUNT_HOLDERS]: (ctx) => readSnapshot(ctx, 'accounts', Routes.accounts.accountCurrencies, (a) => a.accountId,
    (accounts) => addHolders(ctx.orm.em.fork(), accounts)),
});
