/** The bench's figures as JSON and as the markdown tables docs/performance.md keeps. */
import type { AcceptFigures } from './accepts.ts';
import type { LiveFigures } from './live.ts';
import type { PolledReadFigures, RoundFigures } from './polled-reads.ts';
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
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f0 = (v: number) => v.toFixed(0);
const f1 = (v: number) => v.toFixed(1);
const f2 = (v: number) => v.toFixed(2);
const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[][]) => [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

function summary(rounds: RoundFigures[]) {
  return { rps: mean(rounds.map((r) => r.rps)), p50: mean(rounds.map((r) => r.p50)), p99: mean(rounds.map((r) => r.p99)) };
}

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
        `${f0(ok.rps)} req/s, p99 ${f1(ok.p99)} ms`, `${f0(bare.rps)} req/s, p99 ${f1(bare.p99)} ms`, `${f2(ok.rps / bare.rps)}×`, '≥ 0.5×', verdict(ok.rps / bare.rps >= 0.5)],
      [m.mode, '1. the same revalidated (If-None-Match), 304', `${f0(not.rps)} req/s, p99 ${f1(not.p99)} ms`,
        `${f0(bare.rps)} req/s (its 200s)`, `${f2(not.rps / bare.rps)}×`, '> 1×', verdict(not.rps > bare.rps)],
    );
  }
  if (m.users) {
    const held = m.users.filter((s) => s.held).at(-1);
    const last = m.users.at(-1);
    const target = m.mode === 'distributed' ? 10_000 : 3_000;
    rows.push([m.mode, `2. signed-in users at the spec's cadence, ${m.writesPerSecond} write/s`,
      held ? `${held.users} held: ${f0(held.rps)} req/s, p99 ${f1(held.p99)} ms, 0 errors` : 'none held',
      last && !last.held ? `next step ${last.users}: p99 ${f1(last.p99)} ms, ${last.errors} errors` : '', '',
      `${target.toLocaleString('en')}, p99 < 100 ms`, verdict((held?.users ?? 0) >= target)]);
  }
  if (m.live) {
    rows.push([m.mode, `3. live message to the right socket, ${m.live.sockets} open (${m.live.messages} messages)`,
      `p50 ${f1(m.live.p50)} ms, p99 ${f1(m.live.p99)} ms`, '', '', 'p99 < 100 ms', verdict(m.live.p99 < 100)]);
  }
  if (m.accepts) {
    rows.push([m.mode, `4. ${m.accepts.crowd} accepts of one request at once (× ${m.accepts.rounds}): one match each time`,
      `p50 ${f1(m.accepts.p50)} ms, p99 ${f1(m.accepts.p99)} ms`, '', '', 'p99 < 200 ms', verdict(m.accepts.p99 < 200)]);
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
  ].join('\n');
  return { json: { machine, plan, modes }, markdown };
}
