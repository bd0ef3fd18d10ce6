/**
 * Target 2: signed-in users polling at the spec's cadence (browsers.ts), added step by step; at each step the load
 * is measured once it has settled, and a step is held when its p99 is under the target with no error. Writes run
 * meanwhile at a stated rate (every write gives the market a new version: every user's next market poll is a
 * full answer). The browsers run in worker threads of the load generator, so its own queueing stays out of the
 * latencies it reports.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { percentile, sleep, step } from './load.ts';
import type { SeededUser } from './seed.ts';
import type { Tally } from './browsers.ts';
import { crowd, type PollFigures } from './crowd.ts';

/** A step of steady users (a step with any poll shed is not held). */
export interface StepFigures extends PollFigures {
  users: number;
  writes: number;
  /** Resident memory of the product's processes at the end of the step, MiB by process. */
  memoryMiB: Record<string, number>;
  /** The share of a CPU each process used while the step was measured (the load generator's included). */
  cpu: Record<string, number>;
  /** The machine's load average (1 minute) at the end of the step. */
  loadAverage: number;
  held: boolean;
}

export interface SimulationOptions {
  /** The gateways, users spread over them as a load balancer would. */
  urls: string[];
  users: readonly SeededUser[];
  steps: number[];
  /** Worker threads running the browsers. */
  workers: number;
  /** Users arriving per second when a step adds them (sign-ins come spread out, not in one burst). */
  arrivalsPerSecond: number;
  /** Seconds each step is measured, after its users arrived and `settleSeconds` more. */
  measureSeconds: number;
  settleSeconds: number;
  p99TargetMs: number;
  /** A write (post or cancel a request) — run at `writesPerSecond` during the steps. */
  write?: () => Promise<void>;
  writesPerSecond: number;
  memory: () => Record<string, number>;
  /** CPU seconds used so far, by process. */
  cpu: () => Record<string, number>;
}

export async function simulateUsers(opts: SimulationOptions): Promise<StepFigures[]> {
  const browsers = crowd(opts.workers);
  let opened = 0;
  let writeErrors = 0;
  let writeError: string | undefined;

  // Writes at a steady rate, each on its own: a slow one does not delay the next.
  let writes = 0;
  const writer = opts.write && opts.writesPerSecond > 0
    ? setInterval(() => { void opts.write!().then(() => { writes++; }, (err: Error) => { writeErrors++; writeError ??= `a write failed: ${err.message}`; }); }, 1000 / opts.writesPerSecond)
    : undefined;

  /** The browsers' tally since the last take, with the writes' failures. */
  async function takeAll(): Promise<Tally> {
    const tally = await browsers.take();
    const firstError = writeError ?? tally.firstError;
    return { ...tally, errors: tally.errors + writeErrors, ...(firstError ? { firstError } : {}) };
  }

  const results: StepFigures[] = [];
  try {
    for (const target of opts.steps) {
      if (target > opts.users.length) break;
      const adding = target - opened;
      step(`${target} users: ${adding} arriving over ${(adding / opts.arrivalsPerSecond).toFixed(0)} s, settling ${opts.settleSeconds} s, then measuring ${opts.measureSeconds} s`);
      // Users arrive evenly, as sign-ins do, not in one burst of connections and first (full) polls; each worker
      // takes its share of them, at its share of the rate.
      await browsers.add(opts.users.slice(opened, target), opts.urls, opts.arrivalsPerSecond);
      opened = target;
      await sleep(opts.settleSeconds * 1000);
      await takeAll();
      writes = 0;
      writeErrors = 0;
      writeError = undefined;
      const started = performance.now();
      const cpuBefore = opts.cpu();
      await sleep(opts.measureSeconds * 1000);
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = opts.cpu();
      const tally = await takeAll();
      const cpu = Object.fromEntries(Object.entries(cpuAfter).map(([name, used]) => [name, (used - (cpuBefore[name] ?? used)) / seconds]));
      const sorted = tally.latencies.sort();
      const figures: StepFigures = {
        users: target, seconds, requests: sorted.length, rps: sorted.length / seconds,
        p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN,
        statuses: tally.statuses, errors: tally.errors, shed: tally.shed, skipped: tally.skipped, writes,
        memoryMiB: opts.memory(), cpu, loadAverage: loadavg()[0]!,
        held: false,
      };
      figures.held = figures.errors === 0 && figures.shed === 0 && figures.p99 < opts.p99TargetMs;
      results.push(figures);
      step(`${target} users: ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, `
        + `${figures.errors} errors${tally.firstError ? ` (first: ${tally.firstError})` : ''}, ${figures.shed} refused, ${figures.skipped} polls skipped, `
        + `${writes} writes, statuses ${JSON.stringify(figures.statuses)} — ${figures.held ? 'held' : 'NOT held'}`);
      step(`  CPU: ${Object.entries(cpu).sort((a, b) => b[1] - a[1]).map(([name, share]) => `${name} ${(share * 100).toFixed(0)} %`).join(', ')}; load average ${figures.loadAverage.toFixed(2)}`);
      if (!figures.held) break;
    }
  } finally {
    if (writer) clearInterval(writer);
    await browsers.stop();
  }
  return results;
}
