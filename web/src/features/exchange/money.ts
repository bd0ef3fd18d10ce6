/** The receive amount a request shows, by the service's own exact conversion (contracts' convert). */
import { convert, type Currency } from '@puente/contracts';

/** amount × rate for GBP → CLP, amount ÷ rate for CLP → GBP (the rate is CLP per GBP); null until both are positive. */
export function receiveAmount(fromCurrency: Currency, amount: number, rate: number | string): number | null {
  if (!(amount > 0) || !(Number(rate) > 0)) return null;
  return Number(convert(fromCurrency, String(amount), String(rate)));
}
