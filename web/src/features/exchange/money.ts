/**
 * A request's money as the app shows it, by the service's own exact conversion (contracts' convert, big.js): the
 * receive amount, what each side pays and receives, how far a rate is from the market, and what the plan and the
 * rate band allow (the service's own rules, checked as the user types).
 */
import {
  RATE_BAND_PERCENT, convert, decimal, otherCurrency, rateBand, within,
  type Currency, type ExchangeLimits, type ExchangeRequestSummary,
} from '@puente/contracts';

/** amount × rate for GBP → CLP, amount ÷ rate for CLP → GBP (the rate is CLP per GBP); null until both are positive. */
export function receiveAmount(fromCurrency: Currency, amount: number, rate: number | string): number | null {
  if (!(amount > 0) || !(Number(rate) > 0)) return null;
  return Number(convert(fromCurrency, String(amount), String(rate)));
}

export interface Money {
  amount: number;
  currency: Currency;
}

/** What the viewer pays and receives on a request: its poster pays the amount, whoever takes it pays the other side. */
export interface Sides {
  /** The poster ('requester') or anyone else, a visitor included, who would take it ('taker'). */
  role: 'requester' | 'taker';
  pay: Money;
  receive: Money;
}

type RequestTerms = Pick<ExchangeRequestSummary, 'userId' | 'fromCurrency' | 'amount' | 'exchangeRate'>;

/** The request from the viewer's side (null viewer: a visitor, who sees the taker's side); null without a positive rate. */
export function sidesOf(request: RequestTerms, viewerId: number | null | undefined): Sides | null {
  const converted = receiveAmount(request.fromCurrency, request.amount, request.exchangeRate);
  if (converted === null) return null;
  const posted: Money = { amount: request.amount, currency: request.fromCurrency };
  const other: Money = { amount: converted, currency: otherCurrency(request.fromCurrency) };
  return request.userId === viewerId
    ? { role: 'requester', pay: posted, receive: other }
    : { role: 'taker', pay: other, receive: posted };
}

/** How far `rate` is from the market rate, in percent to 1 decimal: positive above it, negative below. */
export function rateDistance(rate: number | string, market: number | string): number | null {
  if (!(Number(rate) > 0) || !(Number(market) > 0)) return null;
  return Number(decimal(String(rate)).minus(String(market)).times(100).div(String(market)).toFixed(1));
}

/** A rule of the service that would refuse a request as typed, with what it allows and by how much it is missed. */
export type RequestRefusal =
  | { rule: 'rateBand'; market: string; low: string; high: string; by: string; side: 'below' | 'above' }
  | { rule: 'perExchange'; tier: ExchangeLimits['tier']; max: Money; over: Money }
  | { rule: 'perDay'; tier: ExchangeLimits['tier']; used: number; allowed: number; resetsAt: string }
  | { rule: 'perMonth'; tier: ExchangeLimits['tier']; used: number; allowed: number; resetsAt: string };

export const isPlanRefusal = (r: RequestRefusal): r is Exclude<RequestRefusal, { rule: 'rateBand' }> => r.rule !== 'rateBand';

/**
 * Every rule the service would refuse this request by, in the order it checks them (exchange service
 * routes/exchange-requests.ts and domain/plan-limits.ts): the rate band around the market rate (the same
 * RATE_BAND_PERCENT and rateBand), then the plan's size per exchange and its exchanges per day and per month.
 * Nothing is said of an amount or a rate that is not a positive number yet: the form's own messages cover them.
 */
export function requestRefusals(input: {
  fromCurrency: Currency; amount: number; rate: number | string; market: number | undefined; limits: ExchangeLimits | undefined;
}): RequestRefusal[] {
  const { fromCurrency, amount, rate, market, limits } = input;
  const refusals: RequestRefusal[] = [];
  if (market !== undefined && Number(rate) > 0) {
    const band = rateBand(String(market), RATE_BAND_PERCENT);
    if (!within(String(rate), band.low, band.high)) {
      const below = decimal(String(rate)).lt(band.low);
      const by = below ? decimal(band.low).minus(String(rate)) : decimal(String(rate)).minus(band.high);
      refusals.push({ rule: 'rateBand', market: String(market), ...band, by: by.toFixed(4), side: below ? 'below' : 'above' });
    }
  }
  if (!limits) return refusals;
  const max = limits.maxPerExchange[fromCurrency];
  if (amount > 0 && decimal(String(amount)).gt(max)) {
    refusals.push({
      rule: 'perExchange', tier: limits.tier, max: { amount: max, currency: fromCurrency },
      over: { amount: Number(decimal(String(amount)).minus(max).toFixed()), currency: fromCurrency },
    });
  }
  if (limits.usedToday >= limits.perDay) {
    refusals.push({ rule: 'perDay', tier: limits.tier, used: limits.usedToday, allowed: limits.perDay, resetsAt: limits.resetsAt.day });
  }
  if (limits.usedThisMonth >= limits.perMonth) {
    refusals.push({ rule: 'perMonth', tier: limits.tier, used: limits.usedThisMonth, allowed: limits.perMonth, resetsAt: limits.resetsAt.month });
  }
  return refusals;
}
