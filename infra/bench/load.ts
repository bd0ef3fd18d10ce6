/**
 * The benchmarks' tools: a pool of workers pulling from a counter, nearest-rank percentiles, progress lines,
 * browser-like calls, and failures that say what to do next.
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

/**
 * The same call again while the gateway refuses it for now (503 or 429 with Retry-After: admission control under
 * load), after the wait it asks for, at most `attempts` times; a refused call was not done, so sending it again is
 * what its user would do. For the bench's own reads and writes around what it measures, never for the measured load.
 */
export async function patiently(send: () => Promise<Response>, attempts = 5): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await send();
    const retryAfter = Number(res.headers.get('retry-after'));
    if (![429, 503].includes(res.status) || !res.headers.has('retry-after') || !Number.isFinite(retryAfter) || attempt >= attempts) return res;
    await res.arrayBuffer();
    await sleep(retryAfter * 1000);
  }
}

/** An unexpected answer as a failure: the call, the status and the body, and what to do. */
export async function unexpected(what: string, res: Response, hint: string): Promise<BenchFailure> {
  const body = await res.text().catch(() => '');
  return new BenchFailure(`${what} answered ${res.status}: ${body.slice(0, 500)}`, hint);
}

export const PRODUCT_HINT = 'This looks like a product bug, not a bench problem: rerun with LOG_LEVEL=info to see the services\' logs, and check the route named above.';
