/**
 * A crowd of simulated browsers (browsers.ts) spread over worker threads of the load generator, so that its own
 * queueing stays out of the latencies it reports; the figures of a stretch of its polls; and the load generator's
 * own CPU and the load average beside them, since the generator shares the machine with what it measures.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { percentile } from './load.ts';
import type { Tally } from './browsers.ts';
import type { BrowsersCommand } from './browsers-worker.ts';

/** A worker thread of browsers, answering each command once done. */
function browserWorker() {
  const worker = new Worker(new URL('./browsers-worker.ts', import.meta.url));
  let next = 0;
  const waiting = new Map<number, (reply: { tally?: Tally }) => void>();
  worker.on('message', (reply: { id: number; tally?: Tally }) => { waiting.get(reply.id)?.(reply); waiting.delete(reply.id); });
  const send = (command: DistributiveOmit<BrowsersCommand, 'id'>) => new Promise<{ tally?: Tally }>((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    worker.postMessage({ ...command, id });
  });
  return {
    add: (users: { cookie: string }[], urls: string[], perSecond: number, pollAtOnce: boolean) =>
      send({ add: { users: users.map((u) => ({ cookie: u.cookie })), urls, perSecond, pollAtOnce } }),
    take: async () => (await send({ take: true })).tally!,
    drop: (count: number) => send({ drop: count }),
    stop: async () => { await send({ stop: true }); await worker.terminate(); },
  };
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type Crowd = ReturnType<typeof crowd>;

/** Tallies of several threads or stretches as one. */
export function merge(tallies: readonly Tally[]): Tally {
  const joined = (pick: (t: Tally) => Float64Array) => {
    const all = new Float64Array(tallies.reduce((n, t) => n + pick(t).length, 0));
    let at = 0;
    for (const t of tallies) { all.set(pick(t), at); at += pick(t).length; }
    return all;
  };
  const sum = (pick: (t: Tally) => number) => tallies.reduce((n, t) => n + pick(t), 0);
  const statuses: Record<number, number> = {};
  for (const t of tallies) for (const [code, n] of Object.entries(t.statuses)) statuses[Number(code)] = (statuses[Number(code)] ?? 0) + n;
  const firstError = tallies.find((t) => t.firstError)?.firstError;
  return {
    latencies: joined((t) => t.latencies), admitted: joined((t) => t.admitted), firstPolls: joined((t) => t.firstPolls), ownQueue: joined((t) => t.ownQueue), statuses,
    errors: sum((t) => t.errors), shed: sum((t) => t.shed), shedWithRetryAfter: sum((t) => t.shedWithRetryAfter),
    stale: sum((t) => t.stale), deferred: sum((t) => t.deferred), skipped: sum((t) => t.skipped),
    ...(firstError ? { firstError } : {}),
  };
}

/** `workers` threads of browsers; users are dealt to them in turn. */
export function crowd(workers: number) {
  const threads = Array.from({ length: Math.max(1, workers) }, browserWorker);
  /** Browsers open on each thread, so that a drop takes the last ones added. */
  const open = threads.map(() => 0);
  return {
    /** Users arriving `perSecond` a second in all; each opens a browser (polling at once when `pollAtOnce`). */
    async add(users: readonly { cookie: string }[], urls: string[], perSecond: number, pollAtOnce = false): Promise<void> {
      await Promise.all(threads.map((w, k) => {
        const mine = users.filter((_, n) => n % threads.length === k);
        open[k]! += mine.length;
        return w.add(mine, urls, perSecond / threads.length, pollAtOnce);
      }));
    },
    /** The last `count` users added leave. */
    async drop(count: number): Promise<void> {
      await Promise.all(threads.map((w, k) => {
        const leaving = Math.min(open[k]!, Math.round(count / threads.length));
        open[k]! -= leaving;
        return w.drop(leaving);
      }));
    },
    /** Every thread's tally since the last take, merged. */
    take: async (): Promise<Tally> => merge(await Promise.all(threads.map((w) => w.take()))),
    async stop(): Promise<void> { await Promise.all(threads.map((w) => w.stop())); },
  };
}

/** What any stretch of simulated polls measured (a window here, a step of the steady users). */
export interface PollFigures {
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  errors: number;
  /** Polls refused (503 or 429). */
  shed: number;
  /** Polls skipped because the previous one of the same reading was still in flight. */
  skipped: number;
}

/** The figures of a stretch of polls. */
export interface WindowFigures extends PollFigures {
  /** Seconds from the start of what is measured (arrivals: the first arrival; overload: the load's drop). */
  from: number;
  /** The same of the answers served (not refused with 503/429). */
  admittedP99: number;
  admittedMax: number;
  /** The served answers to first polls (no ETag: newcomers), and their p99: what a crowd arriving waits for. */
  firstPolls: number;
  firstPollsP99: number;
  /** Polls that waited behind their browser's own (Tally.ownQueue), and the p99 of that wait: not in the latencies. */
  ownQueued: number;
  ownQueueP99: number;
  shedWithRetryAfter: number;
  stale: number;
  deferred: number;
  firstError?: string;
  /** The load generator's share of a CPU (process.cpuUsage: its worker threads included) and the load average. */
  generatorCpu: number;
  loadAverage: number;
}

export function windowFigures(tally: Tally, from: number, seconds: number, generatorCpu: number): WindowFigures {
  const all = tally.latencies.sort();
  const admitted = tally.admitted.sort();
  const firstPolls = tally.firstPolls.sort();
  const ownQueue = tally.ownQueue.sort();
  return {
    from, seconds, requests: all.length, rps: all.length / seconds,
    p50: percentile(all, 0.5), p99: percentile(all, 0.99), max: all.at(-1) ?? Number.NaN,
    admittedP99: percentile(admitted, 0.99), admittedMax: admitted.at(-1) ?? Number.NaN,
    firstPolls: firstPolls.length, firstPollsP99: percentile(firstPolls, 0.99), ownQueued: ownQueue.length, ownQueueP99: percentile(ownQueue, 0.99),
    shed: tally.shed, shedWithRetryAfter: tally.shedWithRetryAfter, stale: tally.stale, deferred: tally.deferred,
    errors: tally.errors, skipped: tally.skipped, statuses: tally.statuses, ...(tally.firstError ? { firstError: tally.firstError } : {}),
    generatorCpu, loadAverage: loadavg()[0]!,
  };
}

/** The load generator's CPU over a stretch: `start()`, then `share()` gives the share of one CPU used since. */
export function generatorCpu() {
  let cpu = process.cpuUsage();
  let at = performance.now();
  return {
    start() { cpu = process.cpuUsage(); at = performance.now(); },
    share(): number {
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / 1e3 / (performance.now() - at);
    },
  };
}

/**
 * Measures the crowd in windows of `seconds`, `count` of them at most, stopping early once `done` says so; the
 * polls are counted in the window in which they were answered. `kept` gets each window's polls.
 */
export async function windows(
  c: Crowd, seconds: number, count: number, done: (w: WindowFigures) => boolean = () => false, kept?: Tally[],
): Promise<WindowFigures[]> {
  const out: WindowFigures[] = [];
  const cpu = generatorCpu();
  // Once the threads answer (a new one first loads its code): what they do from then on is measured.
  await c.take();
  const began = performance.now();
  for (let k = 0; k < count; k++) {
    cpu.start();
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const tally = await c.take();
    // Copied before windowFigures sorts them in place: the caller merges its windows' polls.
    kept?.push({ ...tally, latencies: tally.latencies.slice(), admitted: tally.admitted.slice(), firstPolls: tally.firstPolls.slice(), ownQueue: tally.ownQueue.slice() });
    const w = windowFigures(tally, (started - began) / 1000, (performance.now() - started) / 1000, cpu.share());
    out.push(w);
    if (done(w)) break;
  }
  return out;
}

/** One line of a window's figures, for the progress log. */
export function said(w: WindowFigures): string {
  const shed = w.shed > 0 ? `, ${w.shed} refused (${w.shedWithRetryAfter} with Retry-After), admitted p99 ${w.admittedP99.toFixed(1)} ms` : '';
  return `${w.rps.toFixed(0)} req/s, p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, max ${w.max.toFixed(0)} ms${shed}`
    + `${w.firstPolls ? `, ${w.firstPolls} first polls (no ETag) served, p99 ${w.firstPollsP99.toFixed(1)} ms` : ''}`
    + `${w.ownQueued ? `, ${w.ownQueued} behind their browser's own poll (p99 ${w.ownQueueP99.toFixed(1)} ms, not counted)` : ''}`
    + `${w.stale ? `, ${w.stale} held copies` : ''}${w.errors ? `, ${w.errors} errors (first: ${w.firstError})` : ''}`
    + `; generator ${(w.generatorCpu * 100).toFixed(0)} % of a CPU, load ${w.loadAverage.toFixed(2)}`;
}
