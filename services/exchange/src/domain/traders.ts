/**
 * What the exchange service knows of users: from other services' events (and a snapshot when it starts without
 * them, jobs/backfill-projections.ts) the poster card (names, picture, trust, account age), the verifications (for
 * the trust level a request may require), the plan tier and which
 * currencies each user has an account in; from its own matches, each user's trade record. Never an email, never a
 * bank detail.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { Currency, SubscriptionTier, trustLevel, trustScore, type TrustLevel } from '@puente/contracts';
import { forbidden, qualifiedTable } from '@puente/platform';

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
    /**
     * The rest of the trade record, counted here too as this service's matches are confirmed and completed:
     * matches confirmed, and the completed ones timed from confirmation, with their total seconds.
     */
    confirmedCount: p.integer().default(0),
    timedCompletionCount: p.integer().default(0),
    completionSecondsTotal: p.bigint('number').default(0),
    /** When the user joined identity (its snapshot's createdAt, or the registration event's time); null until known. */
    memberSince: p.datetime().nullable(),
    /** Identity's verifications (spec section 3), which count towards the trust level a request may require. */
    emailVerified: p.boolean().default(false),
    phoneVerified: p.boolean().default(false),
    idVerified: p.boolean().default(false),
    bankVerified: p.boolean().default(false),
    tier: p.enum(SubscriptionTier.options).default('free'),
    /** When the names and picture were last set (an older event never overwrites a newer value). */
    profileAsOf: p.datetime().nullable(),
    tierAsOf: p.datetime().nullable(),
    /** When the user deleted their account (their card shows a deleted user; they may no longer post or accept). */
    deletedAt: p.datetime().nullable(),
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

export const ACCOUNT_DELETED = 'This account has been deleted.';

/**
 * 403 for a user who deleted their account: their session has ended, but a request already on its way may arrive
 * after the deletion reached this service.
 */
export async function assertNotDeleted(em: EntityManager, userId: number): Promise<void> {
  const trader = await em.findOne(Trader, { userId }, { fields: ['deletedAt'] });
  if (trader?.deletedAt) throw forbidden(ACCOUNT_DELETED);
}

/** The user's trust level as identity computes it (spec section 9), from what this service knows of them. */
export function trustLevelOf(t: Trader | null): TrustLevel {
  if (!t) return 'Unverified';
  return trustLevel(trustScore({
    trustRating: t.trustRating === null || t.trustRating === undefined ? null : Number(t.trustRating),
    ratingCount: t.ratingCount, transactionCount: t.transactionCount,
    emailVerified: t.emailVerified, phoneVerified: t.phoneVerified, idVerified: t.idVerified, bankVerified: t.bankVerified,
  }));
}

/** True when the user has an account in both currencies (needed to post or accept a request). */
export async function hasBothAccounts(em: EntityManager, userId: number): Promise<boolean> {
  const currencies = new Set((await em.find(TraderAccount, { userId })).map((a) => a.currency));
  return currencies.has('GBP') && currencies.has('CLP');
}

/** Whole seconds from one instant to a later one (never negative), as a trade record adds them up. */
export const secondsBetween = (from: Date, to: Date): number => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));

type TradeCounter = 'transaction_count' | 'confirmed_count' | 'timed_completion_count' | 'completion_seconds_total';

/**
 * Adds to both parties' trade counters in one statement (no lost update when their other trades move at the same
 * time), creating the row of a party whose registration has not reached this service yet.
 */
export async function addToTradeRecord(em: EntityManager, userIds: [number, number], add: Partial<Record<TradeCounter, number>>): Promise<void> {
  const columns = Object.keys(add) as TradeCounter[];
  const row = `(?, ${columns.map(() => '?').join(', ')})`;
  await em.execute(
    `insert into ${qualifiedTable(em, Trader)} as t (user_id, ${columns.join(', ')}) values ${row}, ${row}
       on conflict (user_id) do update set ${columns.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ')}`,
    userIds.flatMap((userId) => [userId, ...columns.map((c) => add[c])]));
}

/** The trader row, created empty when an event about a user arrives before the one that names them. */
export async function traderRow(em: EntityManager, userId: number): Promise<Trader> {
  const found = await em.findOne(Trader, { userId });
  if (found) return found;
  await em.upsert(Trader, { userId }, { onConflictAction: 'ignore' });
  return em.findOneOrFail(Trader, { userId });
}
