/**
 * Plan limits (spec section 9) by the user's tier: the size of one exchange, in the request's own currency, and
 * how many exchanges a UTC calendar day and month allow. An exchange is a request created (cancelled ones too, so
 * create-and-cancel cannot get round the limit) or a request accepted. The exchange service is the one owner of
 * this count.
 */
import { type Currency, decimal, type ExchangeLimits, formatPlanAmount, SubscriptionPlans, type SubscriptionTier } from '@puente/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, qualifiedTable } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { Trader } from './traders.ts';

/** The advisory-lock class of a user's exchange count (the second key is the user id). */
const USAGE_LOCK = 0x45584348; // 'EXCH'

const limitReached = (message: string) => new AppError(403, 'plan_limit', message);

export function periods(now: Date) {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return {
    day, month,
    nextDay: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)),
    nextMonth: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

export async function tierOf(em: EntityManager, userId: number): Promise<SubscriptionTier> {
  return (await em.findOne(Trader, { userId }, { fields: ['tier'] }))?.tier ?? 'free';
}

/** The user's exchanges in the current UTC day and month. */
export async function usage(em: EntityManager, userId: number, now: Date): Promise<{ today: number; month: number }> {
  const { day, month } = periods(now);
  const [row] = await em.execute<{ today: string; month: string }[]>(
    `select count(*) filter (where created_at >= ?) as today, count(*) as month from (
       select created_at from ${qualifiedTable(em, ExchangeRequest)} where user_id = ? and created_at >= ?
       union all
       select created_at from ${qualifiedTable(em, ExchangeMatch)} where matcher_id = ? and created_at >= ?
     ) exchanges`,
    [day, userId, month, userId, month]);
  return { today: Number(row?.today ?? 0), month: Number(row?.month ?? 0) };
}

export async function limitsOf(em: EntityManager, userId: number, now: Date): Promise<ExchangeLimits> {
  const tier = await tierOf(em, userId);
  const plan = SubscriptionPlans[tier];
  const used = await usage(em, userId, now);
  const { nextDay, nextMonth } = periods(now);
  return {
    tier,
    maxPerExchange: plan.maxPerExchange,
    perDay: plan.exchangesPerDay,
    perMonth: plan.exchangesPerMonth,
    usedToday: used.today,
    usedThisMonth: used.month,
    resetsAt: { day: nextDay.toISOString(), month: nextMonth.toISOString() },
  };
}

/** A plan figure as the spec's plan table writes it: `£200`, `255,000 CLP`. */
const shown = (currency: Currency, amount: number): string => formatPlanAmount(currency, amount, 'en');

function refusal(tier: SubscriptionTier, what: string, premiumAllows: string): string {
  return tier === 'free'
    ? `Free plan limit reached: ${what}. Upgrade to Premium for up to ${premiumAllows}.`
    : `Premium plan limit reached: ${what}.`;
}

/**
 * Refuses (403, with 'limit' and, on the free plan, 'Upgrade' in the message) an exchange of `amount` in
 * `currency` that the user's plan does not allow. Runs inside the transaction that records the exchange and holds
 * the user's lock until it commits, so two concurrent exchanges cannot both pass under the last free slot.
 */
export async function checkPlanLimits(
  tx: EntityManager, userId: number, exchange: { currency: Currency; amount: string }, now: Date,
): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(?, ?)', [USAGE_LOCK, userId]);
  const tier = await tierOf(tx, userId);
  const plan = SubscriptionPlans[tier];
  const premium = SubscriptionPlans.premium;
  const max = plan.maxPerExchange[exchange.currency];
  if (decimal(exchange.amount).gt(max)) {
    throw limitReached(refusal(tier, `at most ${shown(exchange.currency, max)} per exchange`, shown(exchange.currency, premium.maxPerExchange[exchange.currency])));
  }
  const used = await usage(tx, userId, now);
  if (used.today >= plan.exchangesPerDay) {
    throw limitReached(refusal(tier, `${plan.exchangesPerDay} exchanges per day`, String(premium.exchangesPerDay)));
  }
  if (used.month >= plan.exchangesPerMonth) {
    throw limitReached(refusal(tier, `${plan.exchangesPerMonth} exchanges per month`, String(premium.exchangesPerMonth)));
  }
}
