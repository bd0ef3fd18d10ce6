/**
 * The projections of account holders and of users' names start full: when this service starts without having taken
 * a snapshot (a new install, or accounts and users that existed before it ran), it pages through the accounts
 * service's account currencies and identity's users, then records that it did, each once. Events keep them current
 * from there; a snapshot row never overwrites what an event already brought (a removal's tombstone, a newer name).
 * A job, so it retries with backoff while accounts or identity is starting.
 */
import { Routes } from '@puente/contracts';
import { projectionBackfill, readSnapshot } from '@puente/platform';
import { addHolders } from '../domain/account-holders.ts';
import { fullName, setUserNames } from '../domain/user-names.ts';

export const BACKFILL_ACCOUNT_HOLDERS = 'backfill-account-holders';
/** The projection's name in projection_backfill. */
export const ACCOUNT_HOLDERS = 'account-holders';
export const USER_NAMES = 'user-names';

export const backfill = projectionBackfill(BACKFILL_ACCOUNT_HOLDERS, {
  [ACCOUNT_HOLDERS]: (ctx) => readSnapshot(ctx, 'accounts', Routes.accounts.accountCurrencies, (a) => a.accountId,
    (accounts) => addHolders(ctx.orm.em.fork(), accounts)),
  [USER_NAMES]: (ctx) => readSnapshot(ctx, 'identity', Routes.identity.internalUsers, (u) => u.id, async (users) => {
    await setUserNames(ctx.orm.em.fork(), users.map((u) => ({ userId: u.id, name: fullName(u.firstName, u.lastName) })), new Date());
  }),
});
