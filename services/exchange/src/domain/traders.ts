/**
 * What the exchange service knows of users, from other services' events (and a snapshot when it starts without
 * them, jobs/backfill-projections.ts): the poster card (names, picture, trust), the plan tier, and which currencies
 * each user has an account in. Never an email, never a bank detail.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { Currency, SubscriptionTier } from '@puente/contracts';

export const TraderSchema = defineEntity({
  name: 'Trader',
  tableName: 'trader',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    firstName: p.text().default(''),
    lastName: p.text().default(''),
    profileImageUrl: p.text().nullable(),
    /** The average rating to one decimal (as shown), null before the first rating. */
    trustRating: p.decimal('string').precision(2).scale(1).nullable(),
    ratingCount: p.integer().default(0),
    /** Completed exchanges: counted here when a match completes (identity keeps its own count from the same event). */
    transactionCount: p.integer().default(0),
    tier: p.enum(SubscriptionTier.options).default('free'),
    /** When the names and picture were last set (an older event never overwrites a newer value). */
    profileAsOf: p.datetime().nullable(),
    tierAsOf: p.datetime().nullable(),
  },
});
export class Trader extends TraderSchema.class {}
TraderSchema.setClass(Trader);

export const TraderAccountSchema = defineEntity({
  name: 'TraderAccount',
  tableName: 'trader_account',
  properties: {
    accountId: p.integer().primary().autoincrement(false),
    userId: p.integer().index('trader_account_user_id_index'),
    currency: p.enum(Currency.options),
  },
});
export class TraderAccount extends TraderAccountSchema.class {}
TraderAccountSchema.setClass(TraderAccount);

/** True when the user has an account in both currencies (needed to post or accept a request). */
export async function hasBothAccounts(em: EntityManager, userId: number): Promise<boolean> {
  const currencies = new Set((await em.find(TraderAccount, { userId })).map((a) => a.currency));
  return currencies.has('GBP') && currencies.has('CLP');
}

/** The trader row, created empty when an event about a user arrives before the one that names them. */
export async function traderRow(em: EntityManager, userId: number): Promise<Trader> {
  const found = await em.findOne(Trader, { userId });
  if (found) return found;
  await em.upsert(Trader, { userId }, { onConflictAction: 'ignore' });
  return em.findOneOrFail(Trader, { userId });
}
