/**
 * The benchmarks' tools: a load generator with a fixed concurrency (a pool of workers pulling from a counter, each
 * latency by performance.now()), nearest-rank percentiles, progress lines, and failures that say what to do next.
 */
import { performance } from 'node:perf_hooks';

/** A failure with what to do next. */
export class BenchFailure extends Error {
  hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.hint = hint;
  }
}

export const step = (message: string) => console.log(`• ${message}`);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Progress of a long step: one updating line on a terminal, otherwise a line every `every` items. Terminal updates
 * are throttled so that printing never weighs on what is measured.
 */
export function progress(label: string, total: number, every: number) {
  const tty = Boolean(process.stdout.isTTY);
  const started = performance.now();
  let done = 0;
  let shownAt = 0;
  return {
    tick() {
      done += 1;
      if (tty) {
        const now = performance.now();
        if (now - shownAt < 200 && done < total) return;
        shownAt = now;
        process.stdout.write(`\r  ${label}: ${done}/${total}`);
      } else if (done % every === 0 && done < total) {
        console.log(`  ${label}: ${done}/${total}`);
      }
    },
    end() {
      const line = `  ${label}: ${done}/${total} in ${seconds(performance.now() - started)}`;
      if (tty) process.stdout.write(`\r${line}\n`);
      else console.log(line);
    },
  };
}

/** Runs `fn` over `items`, at most `concurrency` at a time (a pool of workers pulling from a counter). */
export async function pool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

/** Nearest-rank percentile of latencies sorted ascending. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export interface Figures {
  label: string;
  n: number;
  concurrency: number;
  /** Requests per second over the run; undefined for bursts (all at once), where it means little. */
  rps: number | undefined;
  p50: number;
  p99: number;
}

export function figures(label: string, latencies: number[], concurrency: number, elapsedMs?: number): Figures {
  const sorted = Float64Array.from(latencies).sort();
  return {
    label, n: sorted.length, concurrency,
    rps: elapsedMs === undefined ? undefined : sorted.length / (elapsedMs / 1000),
    p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99),
  };
}

export const ms = (v: number) => v.toFixed(1);

// ---------------------------------------------------------------------------------------------------------------
// HTTP

export interface CallInit { method?: string; body?: unknown; cookie?: string }

/** A browser-like call through the gateway: same-origin Origin header on writes, the session cookie when given. */
export function caller(base: string) {
  return (path: string, init: CallInit = {}): Promise<Response> => {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = {};
    if (method !== 'GET') headers.origin = base;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.cookie) headers.cookie = init.cookie;
    return fetch(`${base}${path}`, { method, headers, redirect: 'manual', ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  };
}

/** An unexpected answer as a failure: the call, the status and the body, and what to do. */
export async function unexpected(what: string, res: Response, hint: string): Promise<BenchFailure> {
  const body = await res.text().catch(() => '');
  return new BenchFailure(`${what} answered ${res.status}: ${body.slice(0, 500)}`, hint);
}

export const PRODUCT_HINT = 'This looks like a product bug, not a bench problem: rerun with LOG_LEVEL=info to see the services\' logs, and check the route named above.';

/**
 * Fires `n` requests at `url` with `concurrency` workers, each waiting for the whole body; every answer must be
 * `expectStatus`. Latency is from the call to the last byte, by performance.now().
 */
export async function load(label: string, url: string, opts: { n: number; concurrency: number; headers?: Record<string, string> }): Promise<Figures> {
  const latencies = new Array<number>(opts.n);
  const shown = progress(label, opts.n, Math.ceil(opts.n / 4));
  let next = 0;
  let failure: { status: number; body: string } | undefined;
  const worker = async () => {
    for (let i = next++; i < opts.n && !failure; i = next++) {
      const t0 = performance.now();
      const res = await fetch(url, opts.headers ? { headers: opts.headers } : {});
      const body = await res.arrayBuffer();
      latencies[i] = performance.now() - t0;
      if (res.status !== 200) failure ??= { status: res.status, body: Buffer.from(body).toString('utf8').slice(0, 500) };
      shown.tick();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const elapsed = performance.now() - started;
  shown.end();
  if (failure) {
    throw new BenchFailure(`${label}: GET ${url} answered ${failure.status}: ${failure.body}`,
      failure.status === 429 ? 'A rate limit refused the load: raise the matching RATE_LIMIT_* setting in infra/bench/exchange.ts.' : PRODUCT_HINT);
  }
  return figures(label, latencies, opts.concurrency, elapsed);
}
