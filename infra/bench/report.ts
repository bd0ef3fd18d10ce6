/** The bench's figures as JSON and as the markdown tables docs/performance.md keeps. */
import type { AcceptFigures } from './accepts.ts';
import type { ArrivalFigures } from './arrivals.ts';
import type { WindowFigures } from './crowd.ts';
import type { OverloadFigures } from './overload.ts';
import type { ScreenFigures } from './screens.ts';
import type { LiveFigures } from './live.ts';
import { refusedIn, type PolledReadFigures, type RoundFigures } from './polled-reads.ts';
import type { StepFigures } from './simulated-users.ts';

export interface Machine {
  cpus: number; cpu: string; memoryGiB: number; node: string; platform: string; loadAverage: number; date: string;
}

export interface ModeFigures {
  mode: 'embedded' | 'distributed';
  firstStartMs: number;
  restartMs: number;
  /** The share of a CPU the product uses at rest. */
  idleCpu: number;
  writesPerSecond: number;
  polled?: PolledReadFigures;
  users?: StepFigures[];
  live?: LiveFigures;
  accepts?: AcceptFigures;
  arrivals?: ArrivalFigures;
  overload?: OverloadFigures;
  screens?: ScreenFigures;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f0 = (v: number) => v.toFixed(0);
const f1 = (v: number) => v.toFixed(1);
const f2 = (v: number) => v.toFixed(2);
const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[][]) => [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

function summary(rounds: RoundFigures[]) {
  const refused = rounds.reduce((sum, r) => sum + refusedIn(r), 0);
  return { rps: mean(rounds.map((r) => r.rps)), p50: mean(rounds.map((r) => r.p50)), p99: mean(rounds.map((r) => r.p99)), refused };
}

/** ', 1234 refused (not counted)' when the admission door refused some of a target 1 column's requests. */
const refusedNote = (s: { refused: number }) => (s.refused > 0 ? `, ${s.refused} refused (not counted)` : '');

const totalMiB = (memory: Record<string, number>) => Object.values(memory).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);

function targetRows(m: ModeFigures): string[][] {
  const rows: string[][] = [];
  if (m.polled) {
    const p = m.polled;
    const bare = summary(p.baseline);
    const ok = summary(p.product200);
    const not = summary(p.product304);
    rows.push(
      [m.mode, `1. GET ${p.path} (${p.items} items, ${(p.bytes / 1024).toFixed(1)} KB), 200, ${p.connections} connections`,
        `${f0(ok.rps)} req/s, p99 ${f1(ok.p99)} ms${refusedNote(ok)}`, `${f0(bare.rps)} req/s, p99 ${f1(bare.p99)} ms`, `${f2(ok.rps / bare.rps)}×`, '≥ 0.5×', verdict(ok.rps / bare.rps >= 0.5)],
      [m.mode, '1. the same revalidated (If-None-Match), 304', `${f0(not.rps)} req/s, p99 ${f1(not.p99)} ms${refusedNote(not)}`,
        `${f0(bare.rps)} req/s (its 200s)`, `${f2(not.rps / bare.rps)}×`, '> 1×', verdict(not.rps > bare.rps)],
    );
  }
  if (m.users) {
    const held = m.users.filter((s) => s.held).at(-1);
    const last = m.users.at(-1);
    const target = m.mode === 'distributed' ? 12_000 : 10_000;
    rows.push([m.mode, `2. signed-in users at the spec's cadence, ${m.writesPerSecond} write/s`,
      held ? `${held.users} held: ${f0(held.rps)} req/s, p99 ${f1(held.p99)} ms, 0 errors` : 'none held',
      [last && !last.held ? `next step ${last.users}: p99 ${f1(last.p99)} ms, ${last.errors} errors` : '',
        m.overload ? `bare Fastify at 2× held: p99 ${f1(m.overload.baseline.p99)} ms` : ''].filter(Boolean).join('; '), '',
      `${target.toLocaleString('en')}, p99 < 100 ms`, verdict((held?.users ?? 0) >= target)]);
  }
  rows.push(...newTargetRows(m));
  if (m.live) {
    rows.push([m.mode, `3. live message to the right socket, ${m.live.sockets} open (${m.live.messages} messages)`,
      `p50 ${f1(m.live.p50)} ms, p99 ${f1(m.live.p99)} ms; generator ${f0((m.live.generatorCpu ?? 0) * 100)} % of a CPU`, '', '', 'p99 < 100 ms', verdict(m.live.p99 < 100)]);
  }
  if (m.accepts) {
    rows.push([m.mode, `4. ${m.accepts.crowd} accepts of one request at once (× ${m.accepts.rounds}): one match each time`,
      `p50 ${f1(m.accepts.p50)} ms, p99 ${f1(m.accepts.p99)} ms (a warm-up round before, not counted: p99 ${f1(m.accepts.warmUp.p99)} ms); generator ${f0((m.accepts.generatorCpu ?? 0) * 100)} % of a CPU`,
      m.accepts.baselineP99 === undefined ? '' : `as many calls at once: p99 ${f1(m.accepts.baselineP99)} ms`,
      m.accepts.baselineP99 === undefined ? '' : `${f2(m.accepts.p99 / m.accepts.baselineP99)}×`, 'p99 < 200 ms', verdict(m.accepts.p99 < 200)]);
  }
  rows.push(m.mode === 'embedded'
    ? [m.mode, '5. npm start on fresh data to a healthy /api/health', `${f1(m.firstStartMs / 1000)} s`, '', '', '< 15 s', verdict(m.firstStartMs < 15_000)]
    : [m.mode, '5. every process started on fresh data to a healthy /api/health', `${f1(m.firstStartMs / 1000)} s`, '', '', 'stated', '']);
  if (m.users?.length) {
    rows.push([m.mode, '5. memory of the product\'s processes under target 2 (resident)', `${f0(Math.max(...m.users.map((s) => totalMiB(s.memoryMiB))))} MiB`, '', '', 'stated', '']);
  }
  rows.push([m.mode, '   CPU the product uses at rest', `${f0(m.idleCpu * 100)} % of a CPU`, '', '', 'stated', '']);
  return rows;
}

const gen = (w: WindowFigures) => `generator ${f0(w.generatorCpu * 100)} % of a CPU, load ${f2(w.loadAverage)}`;

/** The targets of crowds and changes: cold arrivals, 2× the held load, change → every screen. */
function newTargetRows(m: ModeFigures): string[][] {
  const rows: string[][] = [];
  const a = m.arrivals;
  if (a) {
    const drained = (s: number) => (Number.isNaN(s) ? 'not drained' : `drained after ${f0(s)} s`);
    rows.push([m.mode, `cold arrivals: ${a.users} users within ${a.arrivalSeconds} s, first polls without ETag (worst ${a.arrivalSeconds} s window)`,
      `p99 ${f1(a.p99)} ms, ${drained(a.drainedAfter)}; ${gen(a.product[0]!)}`, `p99 ${f1(a.baselineP99)} ms, ${drained(a.baselineDrainedAfter)}; ${gen(a.baseline[0]!)}`,
      `${f2(a.p99 / a.baselineP99)}×`, `p99 < ${a.p99TargetMs} ms`, verdict(a.p99 < a.p99TargetMs && a.product.every((w) => w.errors === 0))]);
  }
  const o = m.overload;
  if (o) {
    const w = o.overload;
    const share = w.requests ? (w.shed / w.requests) * 100 : 0;
    const shedding = w.shed === 0 ? 'none refused: every poll queued' : `${f1(share)} % refused, ${w.shedWithRetryAfter === w.shed ? 'every one' : `${w.shedWithRetryAfter} of ${w.shed}`} with Retry-After (${w.deferred} polls held back by it)`;
    const back = Number.isNaN(o.recoveredAfter) ? `not back within ${o.recovery.length} s` : `back under ${o.p99TargetMs} ms ${f0(o.recoveredAfter)} s after the drop`;
    const met = w.admittedP99 < 250 && w.admittedMax <= 2_000 && w.shedWithRetryAfter === w.shed && o.recoveredAfter <= 10 && w.errors === 0;
    rows.push([m.mode, `2× the held load (${2 * o.held} users, ${f0(o.seconds)} s), then 1×`,
      `admitted p99 ${f1(w.admittedP99)} ms, longest wait ${f0(w.admittedMax)} ms, ${shedding}${w.stale ? `, ${w.stale} held copies` : ''}; ${back}; ${gen(w)}`,
      `p99 ${f1(o.baseline.p99)} ms at 2×; ${gen(o.baseline)}`, `${f2(w.admittedP99 / o.baseline.p99)}×`,
      'admitted p99 < 250 ms, none waits > 2 s, the rest 503 + Retry-After, p99 < 100 ms within 10 s', verdict(met)]);
  }
  const sc = m.screens;
  if (sc) {
    rows.push([m.mode, `change → every open screen of its users, with announcements, ${sc.sockets} online (${sc.changes} changes)`,
      `p50 ${f1(sc.everyScreenP50)} ms, p99 ${f1(sc.everyScreenP99)} ms (per screen p99 ${f1(sc.screenP99)} ms), ${sc.byPoll} shown only by the 3 s poll, ${sc.missing} never shown; generator ${f0(sc.generatorCpu * 100)} % of a CPU`,
      `every screen read the market: p99 ${f1(sc.baselineP99)} ms; generator ${f0(sc.baselineGeneratorCpu * 100)} % of a CPU`,
      `${f2(sc.everyScreenP99 / sc.baselineP99)}×`, 'p99 < 250 ms', verdict(sc.everyScreenP99 < 250 && sc.missing === 0)]);
  }
  return rows;
}

/** The windows of the arrivals and the overload: the steps before and after each target. */
function windowRows(m: ModeFigures): string[][] {
  const row = (what: string, w: WindowFigures) => [m.mode, what, `${f0(w.from)}–${f0(w.from + w.seconds)}`, f0(w.rps), f1(w.p50), f1(w.p99), f0(w.max),
    f1(w.admittedP99), String(w.shed), String(w.shedWithRetryAfter), String(w.stale), String(w.deferred), String(w.errors), f2(w.generatorCpu), f2(w.loadAverage)];
  const rows: string[][] = [];
  if (m.arrivals) {
    rows.push(...m.arrivals.product.map((w) => row('cold arrivals', w)), ...m.arrivals.baseline.map((w) => row('cold arrivals, bare Fastify', w)));
  }
  if (m.overload) {
    const o = m.overload;
    rows.push(row('1× before', o.before), ...o.overloadWindows.map((w) => row('2×', w)), ...o.recovery.map((w) => row('1× after the drop', w)), row('bare Fastify at 2×', o.baseline));
  }
  return rows;
}

function stepRows(m: ModeFigures): string[][] {
  return (m.users ?? []).map((s) => [m.mode, String(s.users), f0(s.rps), f1(s.p50), f1(s.p99), f1(s.max), String(s.errors), String(s.skipped),
    String(s.writes), Object.entries(s.statuses).map(([k, v]) => `${k}: ${v}`).join(', '), f0(totalMiB(s.memoryMiB)),
    Object.entries(s.cpu).filter(([, share]) => share >= 0.05).sort((a, b) => b[1] - a[1]).map(([name, share]) => `${name} ${f2(share)}`).join(', '),
    s.held ? 'held' : 'not held']);
}

export function report(machine: Machine, plan: unknown, modes: ModeFigures[]): { json: unknown; markdown: string } {
  const markdown = [
    `Machine: ${machine.cpus} CPUs (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}; `
      + `load average ${machine.loadAverage.toFixed(2)} at the start; ${machine.date}. The load generator runs on the same machine.`,
    '',
    table(['mode', 'target', 'Puente', 'baseline', 'ratio', 'target', ''], modes.flatMap(targetRows)),
    '',
    'Target 2 step by step (each step measured after the users were added and had settled):',
    '',
    table(['mode', 'users', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'polls skipped', 'writes', 'statuses', 'MiB', 'CPUs used (≥ 0.05)', ''], modes.flatMap(stepRows)),
    '',
    ...(modes.some((m) => m.arrivals || m.overload) ? [
      'Cold arrivals and 2× the held load, window by window (seconds from the first arrival, or from the surge and from the drop; '
        + 'the generator\'s CPU is the bench process\'s own, its worker threads included):',
      '',
      table(['mode', 'stretch', 's', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'admitted p99 ms', 'refused', 'with Retry-After', 'held copies', 'polls held back', 'errors', 'generator CPU', 'load'], modes.flatMap(windowRows)),
      '',
    ] : []),
  ].join('\n');
  return { json: { machine, plan, modes }, markdown };
}
