/**
 * Twice the held load: `held` users poll at the spec's cadence and settle; then as many again arrive (new browsers,
 * `surgePerSecond` a second) and the 2× load runs for `seconds`; then the newcomers leave and the seconds until the
 * p99 is back under the target, with nothing refused, are counted (1 s windows). What a service under 2× should do:
 * answer what it can fast and refuse the rest at once with Retry-After (the browsers honour it, as the web app does:
 * browsers.ts). The bench measures what the product does — if it queues everything, the admitted p99 and the longest
 * wait say so. The same 2× crowd then polls the bare server, to show what this machine and generator do at 2×.
 */
import { crowd, merge, said, windowFigures, windows, type WindowFigures } from './crowd.ts';
import type { Tally } from './browsers.ts';
import { sleep, step } from './load.ts';
import type { SeededUser } from './seed.ts';

export interface OverloadFigures {
  held: number;
  seconds: number;
  /** The held load just before the surge. */
  before: WindowFigures;
  /** The whole 2× stretch, and its windows. */
  overload: WindowFigures;
  overloadWindows: WindowFigures[];
  /** 1 s windows after the drop, until recovered. */
  recovery: WindowFigures[];
  /** Seconds from the drop to the end of the first window under the target with nothing refused (NaN: never). */
  recoveredAfter: number;
  baseline: WindowFigures;
  p99TargetMs: number;
}

export async function overload(opts: {
  urls: string[]; bareUrl: string; users: readonly SeededUser[]; held: number; workers: number; arrivalsPerSecond: number; surgePerSecond: number;
  settleSeconds: number; seconds: number; recoverySeconds: number; baselineSeconds: number; p99TargetMs: number;
}): Promise<OverloadFigures> {
  const { held } = opts;
  const c = crowd(opts.workers);
  let figures: Omit<OverloadFigures, 'baseline'>;
  try {
    step(`${held} users arriving over ${(held / opts.arrivalsPerSecond).toFixed(0)} s, settling ${opts.settleSeconds} s (the held load)`);
    await c.add(opts.users.slice(0, held), opts.urls, opts.arrivalsPerSecond);
    await sleep(opts.settleSeconds * 1000);
    const [before] = await windows(c, 10, 1);
    step(`  1×: ${said(before!)}`);

    step(`${held} more arriving at ${opts.surgePerSecond}/s: 2× the held load for ${opts.seconds} s`);
    const kept: Tally[] = [];
    const surging = c.add(opts.users.slice(held, 2 * held), opts.urls, opts.surgePerSecond);
    const overloadWindows = await windows(c, 10, Math.ceil(opts.seconds / 10), undefined, kept);
    await surging;
    for (const w of overloadWindows) step(`  ${w.from.toFixed(0)}–${(w.from + w.seconds).toFixed(0)} s: ${said(w)}`);
    const seconds = overloadWindows.reduce((n, w) => n + w.seconds, 0);
    const whole = windowFigures(merge(kept), 0, seconds, overloadWindows.reduce((n, w) => n + w.generatorCpu * w.seconds, 0) / seconds);
    step(`  2× in all: ${said(whole)}; ${whole.deferred} polls held back by Retry-After`);

    step(`the ${held} newcomers leave: back to 1×`);
    const recovered = (w: WindowFigures) => w.p99 < opts.p99TargetMs && w.shed === 0;
    const dropping = c.drop(held);
    const recovery = await windows(c, 1, opts.recoverySeconds, recovered);
    await dropping;
    const back = recovery.find(recovered);
    const recoveredAfter = back ? back.from + back.seconds : Number.NaN;
    step(`  ${Number.isNaN(recoveredAfter) ? `not back under ${opts.p99TargetMs} ms within ${opts.recoverySeconds} s` : `back under ${opts.p99TargetMs} ms after ${recoveredAfter.toFixed(0)} s`}: last window ${said(recovery.at(-1)!)}`);
    figures = { held, seconds, before: before!, overload: whole, overloadWindows, recovery, recoveredAfter, p99TargetMs: opts.p99TargetMs };
  } finally {
    await c.stop();
  }

  step(`the same ${2 * held} users polling bare Fastify (the same bodies) for ${opts.baselineSeconds} s`);
  const b = crowd(opts.workers);
  try {
    await b.add(opts.users.slice(0, 2 * held), [opts.bareUrl], opts.surgePerSecond);
    await sleep(3_000); // a whole cadence: every browser has polled
    const [baseline] = await windows(b, opts.baselineSeconds, 1);
    step(`  bare at 2×: ${said(baseline!)}`);
    return { ...figures, baseline: baseline! };
  } finally {
    await b.stop();
  }
}
