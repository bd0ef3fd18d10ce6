/**
 * Premium's advanced analytics: a user's own figures over their completed exchanges. Everything comes from this
 * service's own data: its matches and requests, its rate history (the market rate in force when each match was
 * made) and its projection of users' ratings (the counterparties' averages, as every partner rated them: what tells a
 * trader whom they have been dealing with). Amounts and rates are summed as decimals, never floats.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type Analytics, type AmountsByCurrency, type Currency, convert, decimal, type Decimal, moneyNumber, moneyString,
  PREMIUM_REQUIRED, PREMIUM_REQUIRED_MESSAGE,
} from '@puente/contracts';
import { AppError, qualifiedTable } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRateEntry } from './exchange-rate.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { otherParty } from './history.ts';
import { tierOf } from './plan-limits.ts';
import { secondsBetween, Trader } from './traders.ts';

/** 403 `premium_required` unless the user is on Premium (as this service's plan projection knows them). */
export async function assertPremium(em: EntityManager, userId: number): Promise<void> {
  if (await tierOf(em, userId) !== 'premium') throw new AppError(403, PREMIUM_REQUIRED, PREMIUM_REQUIRED_MESSAGE);
}

const zero = (): Record<Currency, Decimal> => ({ GBP: decimal(0), CLP: decimal(0) });
const amounts = (sums: Record<Currency, Decimal>): AmountsByCurrency =>
  ({ GBP: moneyNumber(moneyString('GBP', sums.GBP)), CLP: moneyNumber(moneyString('CLP', sums.CLP)) });
const mean = (values: Decimal[]): Decimal => values.reduce((a, b) => a.plus(b), decimal(0)).div(values.length);

/** The middle value (the mean of the two middle ones for an even count), whole seconds rounded half-up. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : decimal(sorted[mid - 1]!).plus(sorted[mid]!).div(2).round(0).toNumber();
}

/**
 * How much better (positive) or worse the user's rate was than the market's, in percent to 2 decimals: the rate is
 * CLP per GBP, so a higher one favours whoever sent pounds and a lower one whoever sent pesos.
 */
export function advantagePercent(sent: Currency, rate: string, market: string): Decimal {
  const diff = sent === 'GBP' ? decimal(rate).minus(market) : decimal(market).minus(rate);
  return diff.times(100).div(market);
}

export async function analyticsOf(em: EntityManager, userId: number): Promise<Analytics> {
  const matches = await em.find(ExchangeMatch,
    { status: 'completed', $or: [{ requesterId: userId }, { matcherId: userId }] },
    { orderBy: { completedAt: 'asc', id: 'asc' } });
  const requests = new Map((await em.find(ExchangeRequest, { id: { $in: matches.map((m) => m.requestId) } })).map((r) => [r.id, r]));
  // The market rate when each match was made: the newest stored rate first seen at or before it.
  const marketRows = await em.execute<{ id: number; market_rate: string | null }[]>(
    `select m.id, (select r.rate from ${qualifiedTable(em, ExchangeRateEntry)} r where r.fetched_at <= m.created_at
       order by r.fetched_at desc, r.id desc limit 1) as market_rate
     from ${qualifiedTable(em, ExchangeMatch)} m where m.status = 'completed' and (m.requester_id = ? or m.matcher_id = ?)`,
    [userId, userId]);
  const marketOf = new Map(marketRows.map((row) => [Number(row.id), row.market_rate]));

  const months = new Map<string, { exchanges: number; sent: Record<Currency, Decimal>; received: Record<Currency, Decimal> }>();
  const trades: Analytics['rates']['trades'] = [];
  const advantages: Decimal[] = [];
  const seconds: number[] = [];
  const partners = new Map<number, number>();
  for (const m of matches) {
    const r = requests.get(m.requestId)!;
    const completedAt = m.completedAt!;
    const isRequester = m.requesterId === userId;
    const converted = convert(r.fromCurrency, r.amount, r.exchangeRate);
    const sentCurrency = isRequester ? r.fromCurrency : r.toCurrency;
    const month = completedAt.toISOString().slice(0, 7);
    const figures = months.get(month) ?? { exchanges: 0, sent: zero(), received: zero() };
    figures.exchanges++;
    figures.sent[sentCurrency] = figures.sent[sentCurrency].plus(isRequester ? r.amount : converted);
    const receivedCurrency = isRequester ? r.toCurrency : r.fromCurrency;
    figures.received[receivedCurrency] = figures.received[receivedCurrency].plus(isRequester ? converted : r.amount);
    months.set(month, figures);

    const market = marketOf.get(m.id) ?? null;
    const advantage = market === null ? null : advantagePercent(sentCurrency, r.exchangeRate, market);
    if (advantage !== null) advantages.push(advantage);
    trades.push({
      exchangeMatchId: m.id, completedAt: completedAt.toISOString(), fromCurrency: sentCurrency,
      exchangeRate: Number(r.exchangeRate), marketRate: market === null ? null : Number(market),
      advantagePercent: advantage === null ? null : advantage.round(2).toNumber(),
    });
    seconds.push(secondsBetween(m.createdAt, completedAt));
    partners.set(otherParty(m, userId), (partners.get(otherParty(m, userId)) ?? 0) + 1);
  }

  const traders = await em.find(Trader, { userId: { $in: [...partners.keys()] } });
  const list = traders.map((t) => ({
    userId: t.userId, firstName: t.firstName, lastName: t.lastName, exchanges: partners.get(t.userId)!,
    trustRating: t.trustRating === null || t.trustRating === undefined ? null : Number(t.trustRating), ratingCount: t.ratingCount,
  })).sort((a, b) => b.exchanges - a.exchanges || a.userId - b.userId);
  const rated = list.flatMap((c) => (c.trustRating === null ? [] : [decimal(c.trustRating)]));

  return {
    completedExchanges: matches.length,
    months: [...months].map(([month, f]) => ({ month, exchanges: f.exchanges, sent: amounts(f.sent), received: amounts(f.received) })),
    rates: {
      averageAdvantagePercent: advantages.length ? mean(advantages).round(2).toNumber() : null,
      trades: trades.reverse(),
    },
    timeToCompletion: {
      medianSeconds: median(seconds),
      averageSeconds: seconds.length ? mean(seconds.map((s) => decimal(s))).round(0).toNumber() : null,
    },
    counterparties: { averageRating: rated.length ? mean(rated).round(1).toNumber() : null, list },
  };
}
