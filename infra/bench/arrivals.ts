/**
 * Cold arrivals: `users` signed-in users arrive within `arrivalSeconds`, as after a gateway restart, a deploy or a
 * morning peak: each browser is new (no ETag: its first polls are full answers) and polls at once, then at the
 * spec's cadence. Measured in windows from the first arrival, the arrival's own window first, until a window after
 * the arrivals is under the target (how long the crowd takes to drain), at most `drainSeconds`. The very same crowd
 * then arrives at the bare server answering the same bodies, for comparison.
 */
import { crowd, said, windows, type WindowFigures } from './crowd.ts';
import { step } from './load.ts';
import type { SeededUser } from './seed.ts';

export interface ArrivalFigures {
  users: number;
  arrivalSeconds: number;
  product: WindowFigures[];
  baseline: WindowFigures[];
  /** The worst window's p99 (the arrival's, unless draining took longer). */
  p99: number;
  baselineP99: number;
  /** Seconds from the first arrival to the end of the first window after the arrivals under the target (NaN: never). */
  drainedAfter: number;
  baselineDrainedAfter: number;
  p99TargetMs: number;
}

async function arrive(urls: string[], users: readonly SeededUser[], opts: { workers: number; arrivalSeconds: number; drainSeconds: number; p99TargetMs: number }) {
  const c = crowd(opts.workers);
  try {
    const arriving = c.add(users, urls, users.length / opts.arrivalSeconds, true);
    const measured = await windows(c, opts.arrivalSeconds, 1 + Math.ceil(opts.drainSeconds / opts.arrivalSeconds), (w) => w.from > 0 && w.p99 < opts.p99TargetMs);
    await arriving;
    for (const w of measured) step(`  ${w.from.toFixed(0)}–${(w.from + w.seconds).toFixed(0)} s: ${said(w)}`);
    const drained = measured.find((w) => w.from > 0 && w.p99 < opts.p99TargetMs);
    return { windows: measured, p99: Math.max(...measured.map((w) => w.p99)), drainedAfter: drained ? drained.from + drained.seconds : Number.NaN };
  } finally {
    await c.stop();
  }
}

export async function coldArrivals(opts: {
  urls: string[]; bareUrl: string; users: readonly SeededUser[]; workers: number; arrivalSeconds: number; drainSeconds: number; p99TargetMs: number;
}): Promise<ArrivalFigures> {
  step(`${opts.users.length} users arriving within ${opts.arrivalSeconds} s, first polls without ETag, at the product`);
  const product = await arrive(opts.urls, opts.users, opts);
  step(`the same crowd arriving at bare Fastify (the same bodies, every poll a full answer)`);
  const baseline = await arrive([opts.bareUrl], opts.users, opts);
  return {
    users: opts.users.length, arrivalSeconds: opts.arrivalSeconds, product: product.windows, baseline: baseline.windows,
    p99: product.p99, baselineP99: baseline.p99, drainedAfter: product.drainedAfter, baselineDrainedAfter: baseline.drainedAfter,
    p99TargetMs: opts.p99TargetMs,
  };
}
