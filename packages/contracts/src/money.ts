/**
 * Money, exactly (the exchange service's and the web app's one definition): amounts and rates are decimal strings in
 * the database and on the bus, and every computation on
 * them is done by big.js on their decimal digits, never on a binary float. Rounding is half-up (half away from zero,
 * the amounts being positive) to the currency's unit: pence for GBP, whole pesos for CLP.
 */
import BigLib from 'big.js';
import { CurrencyDecimals, DecimalString, type Currency } from './api/common.ts';

/** Our own big.js constructor, so its settings are ours alone: 30 decimal places on division, half-up. */
const Big = BigLib();
Big.DP = 30;
Big.RM = Big.roundHalfUp;

export type Decimal = BigLib.Big;
export const decimal = (value: BigLib.BigSource): Decimal => new Big(value);

/** An amount as stored and published: fixed to the currency's decimals ('12.50', '255000'). */
export function moneyString(currency: Currency, amount: BigLib.BigSource): string {
  return decimal(amount).round(CurrencyDecimals[currency], Big.roundHalfUp).toFixed(CurrencyDecimals[currency]);
}

/** A DecimalString rounded half-up to `places` decimals, exactly: '4.35' → '4.4' (a shown average rating). */
export function roundDecimal(value: DecimalString, places: number): DecimalString {
  return decimal(DecimalString.parse(value)).round(places, Big.roundHalfUp).toFixed(places);
}

/** An amount as the API answers it: a JSON number of at most 2 decimals (exact for amounts below 2^53 pence). */
export const moneyNumber = (amount: string): number => Number(amount);

/**
 * What the other side of a request is worth: amount × rate for GBP → CLP, amount ÷ rate for CLP → GBP (the rate is
 * always CLP per GBP), rounded half-up to the target currency's unit.
 */
export function convert(fromCurrency: Currency, amount: string, rate: string): string {
  const value = fromCurrency === 'GBP' ? decimal(amount).times(rate) : decimal(amount).div(rate);
  return moneyString(fromCurrency === 'GBP' ? 'CLP' : 'GBP', value);
}

/** How far a posted rate may be from the market rate, either way (a user may offer a better rate). */
export const RATE_BAND_PERCENT = 10;

/** The band a user's rate must fall in: the market rate ± `percent` %, to 4 decimals, rounded inwards. */
export function rateBand(market: string, percent: number): { low: string; high: string } {
  const spread = decimal(market).times(percent).div(100);
  return {
    low: decimal(market).minus(spread).round(4, Big.roundUp).toFixed(4),
    high: decimal(market).plus(spread).round(4, Big.roundDown).toFixed(4),
  };
}

export const within = (value: BigLib.BigSource, low: string, high: string): boolean =>
  decimal(value).gte(low) && decimal(value).lte(high);
