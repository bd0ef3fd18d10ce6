/**
 * Target 2: signed-in users polling at the spec's cadence (browsers.ts), added step by step; at each step the load
 * is measured once it has settled, and a step is held when its p99 is under the target with no error. Writes run
 * meanwhile at a stated rate (every write gives the market a new version: every user's next market poll is a
 * full answer). The browsers run in worker threads of the load generator, so its own queueing stays out of the
 * latencies it reports.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { percentile, sleep, step } from './load.ts';
import type { SeededUser } from './seed.ts';
import type { Tally } from './browsers.ts';
import type { BrowsersCommand } from './browsers-worker.ts';

export interface StepFigures {
  users: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  errors: number;
  /** Polls skipped because the previous one of the same reading was still in flight. */
  skipped: number;
  writes: number;
  /** Resident memory of the product's processes at the end of the step, MiB by process. */
  memoryMiB: Record<string, number>;
  /** The share of a CPU each process used while the step was measured (the load generator's included). */
  cpu: Record<string, number>;
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

/** A worker thread of browsers, answering each command once done. */
function browserWorker() {
  const worker = new Worker(new URL('./browsers-worker.ts', import.meta.url));
  let next = 0;
  const waiting = new Map<number, (reply: { tally?: Tally }) => void>();
  worker.on('message', (reply: { id: number; tally?: Tally }) => { waiting.get(reply.id)?.(reply); waiting.delete(reply.id); });
  const send = (command: Omit<BrowsersCommand, 'id'>) => new Promise<{ tally?: Tally }>((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    worker.postMessage({ ...command, id });
  });
  return {
    add: (users: SeededUser[], urls: string[], perSecond: number) => send({ add: { users: users.map((u) => ({ cookie: u.cookie })), urls, perSecond } }),
    take: async () => (await send({ take: true })).tally!,
    stop: async () => { await send({ stop: true }); await worker.terminate(); },
  };
}

export async function simulateUsers(opts: SimulationOptions): Promise<StepFigures[]> {
  const workers = Array.from({ length: Math.max(1, opts.workers) }, browserWorker);
  let opened = 0;
  let writeErrors = 0;
  let writeError: string | undefined;

  // Writes at a steady rate, each on its own: a slow one does not delay the next.
  let writes = 0;
  const writer = opts.write && opts.writesPerSecond > 0
    ? setInterval(() => { void opts.write!().then(() => { writes++; }, (err: Error) => { writeErrors++; writeError ??= `a write failed: ${err.message}`; }); }, 1000 / opts.writesPerSecond)
    : undefined;

  /** Every worker's tally since the last take, merged. */
  async function takeAll(): Promise<Tally> {
    const tallies = await Promise.all(workers.map((w) => w.take()));
    const statuses: Record<number, number> = {};
    for (const t of tallies) for (const [code, n] of Object.entries(t.statuses)) statuses[Number(code)] = (statuses[Number(code)] ?? 0) + n;
    const latencies = new Float64Array(tallies.reduce((n, t) => n + t.latencies.length, 0));
    let at = 0;
    for (const t of tallies) { latencies.set(t.latencies, at); at += t.latencies.length; }
    const firstError = writeError ?? tallies.find((t) => t.firstError)?.firstError;
    return {
      latencies, statuses, errors: writeErrors + tallies.reduce((n, t) => n + t.errors, 0), skipped: tallies.reduce((n, t) => n + t.skipped, 0),
      ...(firstError ? { firstError } : {}),
    };
  }

  const results: StepFigures[] = [];
  try {
    for (const target of opts.steps) {
      if (target > opts.users.length) break;
      const adding = target - opened;
      step(`${target} users: ${adding} arriving over ${(adding / opts.arrivalsPerSecond).toFixed(0)} s, settling ${opts.settleSeconds} s, then measuring ${opts.measureSeconds} s`);
      // Users arrive evenly, as sign-ins do, not in one burst of connections and first (full) polls; each worker
      // takes its share of them, at its share of the rate.
      const arriving = opts.users.slice(opened, target);
      await Promise.all(workers.map((w, k) => w.add(arriving.filter((_, n) => n % workers.length === k), opts.urls, opts.arrivalsPerSecond / workers.length)));
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
        statuses: tally.statuses, errors: tally.errors, skipped: tally.skipped, writes,
        memoryMiB: opts.memory(), cpu,
        held: false,
      };
      figures.held = figures.errors === 0 && figures.p99 < opts.p99TargetMs;
      results.push(figures);
      step(`${target} users: ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, `
        + `${figures.errors} errors${tally.firstError ? ` (first: ${tally.firstError})` : ''}, ${figures.skipped} polls skipped, `
        + `${writes} writes, statuses ${JSON.stringify(figures.statuses)} — ${figures.held ? 'held' : 'NOT held'}`);
      step(`  CPU: ${Object.entries(cpu).sort((a, b) => b[1] - a[1]).map(([name, share]) => `${name} ${(share * 100).toFixed(0)} %`).join(', ')}`);
      if (!figures.held) break;
    }
  } finally {
    if (writer) clearInterval(writer);
    await Promise.all(workers.map((w) => w.stop()));
  }
  return results;
}
