/**
 * Rates as exact decimals. A rate is stored as numeric(12,4) (CLP per GBP: up to 8 integer digits, 4 decimals) and
 * handled as its 4-decimal string, '1187.5433'. Rounding works on the digits of the decimal as written, never on a
 * binary float: 1187.54325 is 1187.543249999… as a double, so (1187.54325).toFixed(4) gives 1187.5432.
 */

export const RATE_DECIMALS = 4;
/** numeric(12,4) holds values below 10^8. */
const MAX_UNITS = 10n ** 12n;
/** A JSON number, as written (a provider may also send it as a string). */
const DECIMAL_LITERAL = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Beyond this an exponent is nonsense for a rate (and would make a huge BigInt). */
const MAX_EXPONENT = 100;

/** A value that is not a usable rate; the message says why (it names the value, never where it came from). */
export class RateValueError extends Error {
  override name = 'RateValueError';
}

const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * The rate of a decimal literal, rounded to 4 decimals half away from zero on its digits:
 * '1187.54325' → '1187.5433', '1187.54324' → '1187.5432', '1.18754325e3' → '1187.5433', '1275' → '1275.0000'.
 * Throws RateValueError unless the literal is a number, positive once rounded, and fits numeric(12,4).
 */
export function toRate(literal: string): string {
  const text = literal.trim();
  const match = DECIMAL_LITERAL.exec(text);
  if (!match) throw new RateValueError(`not a number: ${shown(text)}`);
  const [, sign, whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) throw new RateValueError(`out of range: ${shown(text)}`);

  // value = digits × 10^-scale; units are 10^-4, so round digits to 10^(scale-4).
  const digits = BigInt(whole + fraction);
  const scale = fraction.length - exponent;
  let units: bigint;
  if (scale <= RATE_DECIMALS) {
    units = digits * 10n ** BigInt(RATE_DECIMALS - scale);
  } else {
    const divisor = 10n ** BigInt(scale - RATE_DECIMALS);
    units = digits / divisor;
    if ((digits % divisor) * 2n >= divisor) units += 1n;
  }

  if (sign === '-' || units === 0n) throw new RateValueError(`not positive: ${shown(text)}`);
  if (units >= MAX_UNITS) throw new RateValueError(`too large: ${shown(text)}`);
  const padded = units.toString().padStart(RATE_DECIMALS + 1, '0');
  return `${padded.slice(0, -RATE_DECIMALS)}.${padded.slice(-RATE_DECIMALS)}`;
}

/** The rate as the API answers it, a JSON number: a decimal of at most 12 significant digits round-trips through a double. */
export const rateNumber = (rate: string): number => Number(rate);
