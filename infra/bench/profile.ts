/**
 * Where the time went: summarises V8 CPU profiles (.cpuprofile, from `node --cpu-prof` or BENCH_CPU_PROFILE) by
 * package — self time of every sample, grouped by the node_modules package or the workspace file it ran in.
 *
 *   node infra/bench/profile.ts <file.cpuprofile> [--top 25] [--files] [--from <s>] [--to <s>] [--timeline]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

const { values, positionals } = parseArgs({ allowPositionals: true, options: {
  top: { type: 'string', default: '25' }, files: { type: 'boolean', default: false }, from: { type: 'string' }, to: { type: 'string' },
  timeline: { type: 'boolean', default: false },
}  });
if (positionals.length !== 1) {
  console.error('usage: node infra/bench/profile.ts <file.cpuprofile> [--top 25] [--files] [--from <s>] [--to <s>] [--timeline]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));

/** A sample's place: a package under node_modules, a workspace file, node's internals, or V8's own work. */
function placeOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return values.files ? url : `node:${url.slice(5).split('/')[0]}`;
  const workspace = /\/(packages|services|gateway|infra|web)\/([^/]+)?/.exec(url);
  if (!workspace) return url;
  return values.files ? url.replace(/^.*?\/(packages|services|gateway|infra)\//, '$1/') : `${workspace[1]}/${workspace[1] === 'gateway' ? '' : workspace[2]}`;
}

// Only the samples between --from and --to (seconds into the profile), so that start-up and the pauses between a
// bench's rounds do not dilute what the load cost; --timeline prints how busy each second was, to choose them.
const times: number[] = [];
let t = profile.startTime;
for (const dt of profile.timeDeltas) times.push((t += dt) - profile.startTime);
const isIdle = (i: number) => byId.get(profile.samples[i]!)!.callFrame.functionName === '(idle)';
if (values.timeline) {
  const busy: number[] = [];
  times.forEach((at, i) => { const s = Math.floor(at / 1e6); busy[s] = (busy[s] ?? 0) + (isIdle(i) ? 0 : profile.timeDeltas[i]!); });
  console.log(busy.map((us, s) => `${s}s ${Math.round((us ?? 0) / 1e4)}%`).join('  '));
}
const from = times.findIndex((at) => at >= Number(values.from ?? 0) * 1e6);
const until = values.to === undefined ? times.length : times.findIndex((at) => at > Number(values.to) * 1e6);
const [first, last] = [Math.max(0, from), until < 0 ? times.length : until];
const self = new Map<string, number>();
let total = 0;
for (let i = first; i < last; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const place = placeOf(byId.get(profile.samples[i]!)!);
  self.set(place, (self.get(place) ?? 0) + dt);
}
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
console.log(`${(total / 1e6).toFixed(1)} s sampled, ${profile.samples.length} samples`);
for (const [place, us] of rows) console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${place}`);
