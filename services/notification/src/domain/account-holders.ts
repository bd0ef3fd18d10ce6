/**
 * Who could take an exchange request: which user holds an account in which currency, from the accounts service's
 * events (and its snapshot when this service starts without it, jobs/backfill-account-holders.ts). Never a bank
 * detail. A removed account stays as a tombstone (`removed`): account ids are never reused, so an older fact (a
 * snapshot page read just before the removal, an added event seen late) can never bring it back.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { Currency, type AccountCurrency } from '@puente/contracts';

export const AccountHolderSchema = defineEntity({
  name: 'AccountHolder',
  tableName: 'account_holder',
  properties: {
    accountId: p.integer().primary().autoincrement(false),
    userId: p.integer(),
    currency: p.enum(Currency.options),
    removed: p.boolean().default(false),
  },
  // The fan-out walks users in id order, grouping their currencies: an index scan that stops at the page's end.
  indexes: [{ name: 'account_holder_user_id_currency_index', properties: ['userId', 'currency'] }],
});
export class AccountHolder extends AccountHolderSchema.class {}
AccountHolderSchema.setClass(AccountHolder);

/** Accounts that exist (an event or a snapshot page): known ones, removed ones included, are left as they are. */
export async function addHolders(em: EntityManager, accounts: AccountCurrency[]): Promise<void> {
  if (accounts.length === 0) return;
  await em.upsertMany(AccountHolder, accounts.map((a) => ({ ...a, removed: false })), { onConflictAction: 'ignore' });
}

/** An account removed: kept as a tombstone, written even when its added event has not been seen. */
export async function removeHolder(em: EntityManager, account: AccountCurrency): Promise<void> {
  await em.upsert(AccountHolder, { ...account, removed: true });
}
