/**
 * Premium's 'advanced analytics' (spec section 9's extras): the caller's own figures over their completed
 * exchanges, computed by the exchange service from its matches, its rate history and its projection of users'
 * ratings. Call: GET /api/analytics/me (premium only; a free user gets 403 `premium_required`).
 */
import { z } from 'zod';
import { Count, Currency, ExchangeRateValue, Id, IsoDateTime, Money, TrustRating } from './common.ts';

/** The `code` of the 403 a free user gets: the web app shows its upgrade prompt on it. */
export const PREMIUM_REQUIRED = 'premium_required';
export const PREMIUM_REQUIRED_MESSAGE = 'Advanced analytics are part of Premium. Upgrade to Premium to see your figures.';

/** Money per currency in major units (GBP pounds to 2 decimals, CLP whole pesos), exact as the API answers money. */
export const AmountsByCurrency = z.object({ GBP: Money, CLP: Money });
export type AmountsByCurrency = z.infer<typeof AmountsByCurrency>;

/** One UTC month (by completion) with the user's completed exchanges: what they sent and received per currency. */
export const AnalyticsMonth = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  exchanges: Count,
  sent: AmountsByCurrency,
  received: AmountsByCurrency,
});
export type AnalyticsMonth = z.infer<typeof AnalyticsMonth>;

/**
 * A completed exchange's rate against the market rate in force when it was matched. `advantagePercent` is from the
 * user's side, to 2 decimals: positive when the rate favoured them (more pesos per pound for the one who sent
 * pounds, fewer for the one who sent pesos). Both are null when no market rate was stored before the match.
 */
export const RateComparison = z.object({
  exchangeMatchId: Id,
  completedAt: IsoDateTime,
  fromCurrency: Currency,
  exchangeRate: ExchangeRateValue,
  marketRate: ExchangeRateValue.nullable(),
  advantagePercent: z.number().nullable(),
});
export type RateComparison = z.infer<typeof RateComparison>;

/** A counterparty with their average rating (what every partner gave them) and how often the user traded with them. */
export const CounterpartyRating = z.object({
  userId: Id,
  firstName: z.string(),
  lastName: z.string(),
  exchanges: Count,
  trustRating: TrustRating,
  ratingCount: Count,
});
export type CounterpartyRating = z.infer<typeof CounterpartyRating>;

/** GET /api/analytics/me */
export const Analytics = z.object({
  completedExchanges: Count,
  /** Oldest first; months without a completed exchange are left out. */
  months: z.array(AnalyticsMonth),
  rates: z.object({
    /** Mean of the trades' advantages, to 2 decimals; null when none has a market rate. */
    averageAdvantagePercent: z.number().nullable(),
    /** Newest first. */
    trades: z.array(RateComparison),
  }),
  /** Whole seconds from the match (acceptance) to completion; null before the first completed exchange. */
  timeToCompletion: z.object({ medianSeconds: Count.nullable(), averageSeconds: Count.nullable() }),
  counterparties: z.object({
    /** Mean of the rated counterparties' averages, one decimal; null when none is rated. */
    averageRating: TrustRating,
    /** Most exchanges first. */
    list: z.array(CounterpartyRating),
  }),
});
export type Analytics = z.infer<typeof Analytics>;
