/**
 * Where the GBP→CLP rate comes from: a port with two adapters, a fixed rate (the default; EXCHANGE_RATE_FIXED) and
 * an HTTP provider (EXCHANGE_RATE_URL, EXCHANGE_RATE_JSON_PATH). Only the refresh job asks a provider; requests read
 * the stored rate, so they never wait on one.
 */
import { toRate } from './rate-value.ts';

export interface RateProvider {
  /** Stored with each rate: 'fixed', or the provider's origin (never its path or query, which may carry a key). */
  readonly source: string;
  /** The current rate, rounded to 4 decimals; throws RateProviderError (or RateValueError) when there is none. */
  currentRate(): Promise<string>;
}

/** The provider did not give a usable answer (the message says what went wrong, without the URL). */
export class RateProviderError extends Error {
  override name = 'RateProviderError';
}

export function fixedRateProvider(rate: string): RateProvider {
  const value = toRate(rate);
  return { source: 'fixed', currentRate: async () => value };
}

export interface HttpRateProviderOptions {
  url: string;
  /** Dot-separated keys (and array indexes) to the rate in the answer, e.g. `rates.CLP`. */
  jsonPath: string;
  timeoutMs: number;
}

/** Far more than any rate answer; a provider sending more is broken, and is not read into memory. */
const MAX_BODY_BYTES = 1 << 20;

export function httpRateProvider(opts: HttpRateProviderOptions): RateProvider {
  const url = new URL(opts.url);
  const path = opts.jsonPath.split('.');
  return {
    source: url.origin,
    async currentRate() {
      let text: string;
      try {
        const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(opts.timeoutMs) });
        if (!res.ok) {
          await res.body?.cancel();
          throw new RateProviderError(`answered HTTP ${res.status}`);
        }
        text = await readCapped(res, MAX_BODY_BYTES);
      } catch (err) {
        if (err instanceof RateProviderError) throw err;
        if (err instanceof Error && err.name === 'TimeoutError') throw new RateProviderError(`no answer within ${opts.timeoutMs} ms`);
        throw new RateProviderError(`unreachable: ${describe(err)}`);
      }
      return toRate(literalAt(parseKeepingNumbers(text), path, opts.jsonPath));
    },
  };
}

/** fetch says only 'fetch failed'; the cause names what (ECONNREFUSED, ENOTFOUND). */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' ? `${err.message} (${cause.code})` : err.message;
}

async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new RateProviderError(`answer larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON number as written in the answer: JSON.parse would turn 1187.54325 into a float before we could round it. */
class NumberLiteral {
  readonly text: string;
  constructor(text: string) { this.text = text; }
}

/** JSON.parse, with each number kept as its source text (the reviver's `context.source`, Node ≥ 21). */
function parseKeepingNumbers(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined ? new NumberLiteral(context.source) : value;
  try {
    return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
  } catch {
    throw new RateProviderError('answered something that is not JSON');
  }
}

/** The decimal literal at the path: a JSON number, or a string holding one. Own keys only (no `__proto__` tricks). */
function literalAt(root: unknown, path: string[], shown: string): string {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || node instanceof NumberLiteral || !Object.hasOwn(node, key)) {
      throw new RateProviderError(`answer has nothing at ${shown}`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  if (node instanceof NumberLiteral) return node.text;
  if (typeof node === 'string') return node;
  throw new RateProviderError(`answer has no number at ${shown}`);
}
