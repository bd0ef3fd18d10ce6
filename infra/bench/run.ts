/**
 * `npm run bench`: the five performance targets of docs/performance.md, measured on this machine against a
 * baseline measured in the same run. Not a test: nothing here fails on a slow machine; it fails only when the
 * product answers wrongly, and then says what to do. infra/bench/README.md says how to read the figures.
 *
 *   npm run bench                         both modes, every target (about 25 minutes on 2 cores)
 *   npm run bench -- --mode embedded      one mode
 *   npm run bench -- --quick              a few users and short rounds: a smoke run of the bench itself
 *   npm run bench -- --targets 2,3        only some targets (numbers or names)
 *   npm run bench -- --target arrivals    one target alone (names below: TARGETS)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { ExchangeRate } from '@puente/contracts';
import { BenchFailure, progress, seconds, step } from './load.ts';
import { cpuByProcess, cpuShare, doorsOpen, openSite, rssMiB, settled, type Mode, type Product, type Site } from './product.ts';
import { seedUsers, type SeededUser } from './seed.ts';
import { marketWriter, smallRequest, traders, type Traders } from './traders.ts';
import { polledReads } from './polled-reads.ts';
import { simulateUsers } from './simulated-users.ts';
import { liveLatency } from './live.ts';
import { concurrentAccepts } from './accepts.ts';
import { coldArrivals } from './arrivals.ts';
import { overload } from './overload.ts';
import { changeToScreens } from './screens.ts';
import { barePolls, type Bare } from './bare.ts';
import { report, type ModeFigures } from './report.ts';

/** The targets by name, with the numbers the bench has always used (the start-up, 5, is always measured). */
const TARGETS = { polled: 1, steady: 2, live: 3, accepts: 4, arrivals: 6, overload: 7, screens: 8 } as const;
type Target = keyof typeof TARGETS;

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'both' },
    quick: { type: 'boolean', default: false },
    targets: { type: 'string' },
    target: { type: 'string', multiple: true },
  },
});
if (!['embedded', 'distributed', 'both'].includes(args.mode!)) {
  console.error('--mode must be embedded, distributed or both');
  process.exit(2);
}
const modes: Mode[] = args.mode === 'both' ? ['embedded', 'distributed'] : [args.mode as Mode];
const quick = args.quick!;
/** Which targets to measure: every one unless --targets or --target name some. */
const named = [...(args.targets?.split(',') ?? []), ...(args.target ?? [])].map((t) => t.trim()).filter((t) => t && t !== '5');
const unknown = named.filter((t) => !(t in TARGETS) && !Object.values(TARGETS).map(String).includes(t));
if (unknown.length > 0) {
  console.error(`unknown target ${unknown.join(', ')}: the targets are ${Object.entries(TARGETS).map(([name, n]) => `${name} (${n})`).join(', ')}`);
  process.exit(2);
}
const chosen = new Set<Target>(named.length === 0 ? Object.keys(TARGETS) as Target[]
  : named.map((t) => (t in TARGETS ? t as Target : (Object.keys(TARGETS) as Target[]).find((name) => String(TARGETS[name]) === t)!)));
const targets = { has: (t: Target) => chosen.has(t) };

function numbers(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (!raw?.trim()) return fallback;
  const values = raw.split(',').map(Number);
  if (values.some((v) => !Number.isFinite(v) || v < 0)) {
    console.error(`${name} must be numbers separated by commas (got "${raw}"). Unset it to use ${fallback.join(',')}.`);
    process.exit(2);
  }
  return values;
}

/** Every knob, with its default (quick: a smoke run). */
const plan = {
  steps: {
    embedded: numbers('BENCH_STEPS_EMBEDDED', quick ? [100, 200] : [2_000, 4_000, 6_000, 8_000, 10_000]),
    distributed: numbers('BENCH_STEPS_DISTRIBUTED', quick ? [100, 200] : [2_000, 4_000, 6_000, 8_000, 10_000, 12_000]),
  },
  writesPerSecond: numbers('BENCH_WRITES_PER_SECOND', [1])[0]!,
  arrivalsPerSecond: numbers('BENCH_ARRIVALS_PER_SECOND', [quick ? 50 : 200])[0]!,
  settleSeconds: numbers('BENCH_SETTLE_SECONDS', [quick ? 5 : 15])[0]!,
  measureSeconds: numbers('BENCH_MEASURE_SECONDS', [quick ? 5 : 30])[0]!,
  roundSeconds: numbers('BENCH_ROUND_SECONDS', [quick ? 2 : 5])[0]!,
  rounds: numbers('BENCH_ROUNDS', [quick ? 1 : 3])[0]!,
  sockets: numbers('BENCH_SOCKETS', [quick ? 50 : 1_000])[0]!,
  livePairs: numbers('BENCH_LIVE_PAIRS', [quick ? 3 : 50])[0]!,
  /** Exchanges run at once during target 3 (one: it measures each message's way, not the trades' throughput). */
  liveConcurrency: numbers('BENCH_LIVE_CONCURRENCY', [1])[0]!,
  crowd: numbers('BENCH_CROWD', [quick ? 20 : 100])[0]!,
  acceptRounds: numbers('BENCH_ACCEPT_ROUNDS', [quick ? 2 : 5])[0]!,
  /** Cold arrivals: users arriving within `coldSeconds` (the first polls without ETag); windows measured until drained. */
  coldUsers: {
    embedded: numbers('BENCH_COLD_USERS_EMBEDDED', [quick ? 50 : 1_000])[0]!,
    distributed: numbers('BENCH_COLD_USERS_DISTRIBUTED', [quick ? 100 : 2_000])[0]!,
  },
  coldSeconds: numbers('BENCH_COLD_SECONDS', [3])[0]!,
  drainSeconds: numbers('BENCH_DRAIN_SECONDS', [quick ? 9 : 30])[0]!,
  /** Overload: 2× the load target 2 held (or these users when target 2 is not run) for `overloadSeconds`. */
  overloadUsers: {
    embedded: numbers('BENCH_OVERLOAD_USERS_EMBEDDED', [quick ? 100 : 10_000])[0]!,
    distributed: numbers('BENCH_OVERLOAD_USERS_DISTRIBUTED', [quick ? 100 : 12_000])[0]!,
  },
  overloadSeconds: numbers('BENCH_OVERLOAD_SECONDS', [quick ? 10 : 60])[0]!,
  /** How fast the second half of the 2× load arrives. */
  surgePerSecond: numbers('BENCH_SURGE_PER_SECOND', [quick ? 100 : 1_000])[0]!,
  recoverySeconds: numbers('BENCH_RECOVERY_SECONDS', [quick ? 10 : 30])[0]!,
  /** How long the bare server is measured under the same crowd (arrivals drain on their own). */
  baselineSeconds: numbers('BENCH_BASELINE_SECONDS', [quick ? 5 : 15])[0]!,
  /** Change → screen: pairs of traders making three changes each, with `sockets` screens open. */
  screenPairs: numbers('BENCH_SCREEN_PAIRS', [quick ? 2 : 20])[0]!,
  /** Distributed: Kafka's fetch wait for targets 1, 2 and 4 (quiet at rest), and for target 3 (events at once). */
  kafkaWaitMs: numbers('BENCH_KAFKA_FETCH_MAX_WAIT_MS', [500, 10]) as [number, number],
  /** Worker threads of the load generator running target 2's browsers. */
  loadWorkers: numbers('BENCH_LOAD_WORKERS', [2])[0]!,
  /** Distributed: gateway instances, the simulated users spread over them as a load balancer would. */
  gateways: numbers('BENCH_GATEWAYS', [2])[0]!,
};
/** The market's size: 25 posters × the free plan's 2 exchanges a day. */
const POSTERS = 25;
/** Two writes (a post and its cancel) per post, two posts per writer, for the whole of target 2 with a margin. */
const writersFor = (steps: number[]) => Math.ceil((plan.writesPerSecond
  * (Math.max(...steps) / plan.arrivalsPerSecond + steps.length * (plan.settleSeconds + plan.measureSeconds))) / 4 * 1.5) + 2;

/** The seeded users, by role. */
function cast(users: SeededUser[], writers: number, maxUsers: number) {
  let at = 0;
  const take = (n: number) => users.slice(at, at += n);
  const posters = take(POSTERS);
  const writing = take(writers);
  const live = take(plan.livePairs * 2);
  const screenPairs = take(plan.screenPairs * 2);
  // A spare and a poster for each round after the first, and the uncounted warm-up round's (accepts.ts).
  const contenders = take(plan.crowd + plan.acceptRounds);
  const acceptPosters = take(plan.acceptRounds + 1);
  const pollers = take(maxUsers);
  return {
    posters, writing, contenders, acceptPosters, pollers,
    pairs: Array.from({ length: plan.livePairs }, (_, i) => [live[2 * i]!, live[2 * i + 1]!] as [SeededUser, SeededUser]),
    screenPairs: Array.from({ length: plan.screenPairs }, (_, i) => [screenPairs[2 * i]!, screenPairs[2 * i + 1]!] as [SeededUser, SeededUser]),
    traders: [...posters, ...writing, ...live, ...screenPairs, ...contenders, ...acceptPosters],
  };
}

async function benchMode(mode: Mode): Promise<ModeFigures> {
  step(`${mode} mode`);
  const steps = plan.steps[mode];
  // Only what the chosen targets need: target 1 polls as the first 50 pollers, the cold arrivals are the next ones,
  // the overload needs twice the held load.
  const maxUsers = Math.max(50, targets.has('steady') ? Math.max(...steps) : 0, targets.has('live') || targets.has('screens') ? plan.sockets : 0,
    targets.has('arrivals') ? 50 + plan.coldUsers[mode] : 0,
    targets.has('overload') ? 2 * (targets.has('steady') ? Math.max(...steps) : plan.overloadUsers[mode]) : 0);
  const writers = writersFor(steps);
  const site: Site = await openSite(mode);
  let product: Product | undefined;
  /** The bare Fastify server answering the polled readings' bodies: the baseline of every target but 1's own. */
  let bare: Bare | undefined;
  try {
    step('target 5: the first start on fresh data (npm start, or every process of the distributed mode)');
    product = await site.start({ kafkaFetchMaxWaitMs: plan.kafkaWaitMs[0] });
    const firstStartMs = product.startedInMs;
    step(`healthy in ${seconds(firstStartMs)}`);
    await settled(product, { busy: 1, quietSeconds: 3 }); // past start-up's own work
    const idleCpu = await cpuShare(product);
    step(`at rest the product uses ${(idleCpu * 100).toFixed(0)} % of a CPU`);
    await product.stop();

    const count = POSTERS + writers + plan.livePairs * 2 + plan.screenPairs * 2 + plan.crowd + plan.acceptRounds * 2 + 1 + maxUsers;
    step(`seeding ${count} signed-in users while the product is stopped`);
    const users = cast(await seedUsers(site, product.secrets, 1, count), writers, maxUsers);

    step('starting again on the seeded data');
    product = await site.start({ kafkaFetchMaxWaitMs: plan.kafkaWaitMs[0], gateways: plan.gateways });
    step(`healthy in ${seconds(product.startedInMs)}`);
    const running = product;
    const t = traders(product.url);
    const rate = ExchangeRate.parse(await (await t.call('/api/exchange-rate', { cookie: users.posters[0]!.cookie })).json());
    const accounts = progress('traders with both bank accounts', users.traders.length, 50);
    await t.withAccounts(users.traders, 8, () => accounts.tick());
    accounts.end();
    await fillMarket(t, users.posters, rate.gbpToClp);
    step(`the services took in the seeded users' events; settled ${seconds(await settled(product, { busy: idleCpu + 0.15 }) * 1000)} later`);

    const figures: ModeFigures = { mode, firstStartMs, restartMs: product.startedInMs, idleCpu, writesPerSecond: plan.writesPerSecond };
    if ((['arrivals', 'overload', 'screens', 'accepts'] as const).some((name) => targets.has(name))) {
      bare = await barePolls(product.url, users.pollers[0]!.cookie);
    }
    /**
     * Each target after the first begins with every gateway's admission door open: a load before it may have shut it
     * (target 1's closed loop keeps the process busy whatever its speed), and a target must not meet another's.
     */
    const doorOpen = async () => {
      const waited = await doorsOpen(product!);
      if (waited > 0) step(`the admission door a load before had shut was open again ${seconds(waited * 1000)} later`);
    };
    if (targets.has('polled')) {
      step('target 1: the polled market list against bare Fastify');
      figures.polled = await polledReads(product.url, users.pollers, { connections: 50, roundSeconds: plan.roundSeconds, rounds: plan.rounds });
    }
    if (targets.has('arrivals')) {
      await doorOpen();
      step(`cold arrivals: ${plan.coldUsers[mode]} users within ${plan.coldSeconds} s, first polls without ETag`);
      figures.arrivals = await coldArrivals({
        urls: product.gatewayUrls, bareUrl: bare!.url, users: users.pollers.slice(50, 50 + plan.coldUsers[mode]), workers: plan.loadWorkers,
        arrivalSeconds: plan.coldSeconds, drainSeconds: plan.drainSeconds, p99TargetMs: 100,
      });
      step(`settled ${seconds(await settled(product, { busy: idleCpu + 0.15 }) * 1000)} after the arrivals`);
    }
    if (targets.has('steady')) {
      await doorOpen();
      step(`target 2: signed-in users polling at the spec's cadence, ${plan.writesPerSecond} write(s) a second`);
      const memory = () => Object.fromEntries([...running.pids()].map(([name, pid]) => [name, rssMiB(pid)]));
      figures.users = await simulateUsers({
        urls: product.gatewayUrls, users: users.pollers, steps, workers: plan.loadWorkers, arrivalsPerSecond: plan.arrivalsPerSecond,
        settleSeconds: plan.settleSeconds, measureSeconds: plan.measureSeconds, p99TargetMs: 100, write: marketWriter(t, users.writing, rate.gbpToClp), writesPerSecond: plan.writesPerSecond, memory,
        cpu: () => cpuByProcess(running),
      });
    }
    if (targets.has('overload')) {
      await doorOpen();
      const heldStep = figures.users?.filter((s) => s.held).at(-1)?.users;
      const held = heldStep ?? plan.overloadUsers[mode];
      step(`overload: 2× ${held} users${heldStep ? ' (the load target 2 held)' : ' (BENCH_OVERLOAD_USERS_*)'} for ${plan.overloadSeconds} s, then back to 1×`);
      figures.overload = await overload({
        urls: product.gatewayUrls, bareUrl: bare!.url, users: users.pollers, held: Math.min(held, Math.floor(users.pollers.length / 2)), workers: plan.loadWorkers,
        arrivalsPerSecond: plan.arrivalsPerSecond, surgePerSecond: plan.surgePerSecond, settleSeconds: plan.settleSeconds, seconds: plan.overloadSeconds,
        recoverySeconds: plan.recoverySeconds, baselineSeconds: plan.baselineSeconds, p99TargetMs: 100,
      });
      step(`settled ${seconds(await settled(product, { busy: idleCpu + 0.15 }) * 1000)} after the overload`);
    }
    if (targets.has('accepts')) {
      await doorOpen();
      step(`target 4: ${plan.crowd} accepts of one request at once, ${plan.acceptRounds} rounds`);
      figures.accepts = await concurrentAccepts({
        t, rate, posters: users.acceptPosters, contenders: users.contenders, crowd: plan.crowd, rounds: plan.acceptRounds, ...(bare ? { bareUrl: bare.url } : {}),
      });
    }
    if (mode === 'distributed' && (targets.has('live') || targets.has('screens'))) {
      step(`restarting with Kafka fetches waiting ${plan.kafkaWaitMs[1]} ms, so that events go through as a real broker lets them`);
      await product.stop();
      product = await site.start({ kafkaFetchMaxWaitMs: plan.kafkaWaitMs[1], gateways: plan.gateways });
      // Past start-up's own work, as far as the CPU tells: fetches this short keep a machine with steal time above a
      // CPU at rest. Change → screen's warm-up trade tells when the consumer groups have formed.
      await settled(product, { busy: 1, quietSeconds: 3, timeoutSeconds: 60, orGoOn: true });
    }
    if (targets.has('live')) {
      await doorOpen();
      step(`target 3: live messages with ${plan.sockets} sockets open`);
      figures.live = await liveLatency({
        urls: product.gatewayUrls, idle: users.pollers.slice(0, Math.max(0, plan.sockets - plan.livePairs * 2)), pairs: users.pairs,
        t: traders(product.url), rate, concurrency: plan.liveConcurrency,
      });
    }
    if (targets.has('screens')) {
      await doorOpen();
      step(`change → screen: ${plan.screenPairs * 3} changes with ${plan.sockets} screens open, refetching on announcements`);
      figures.screens = await changeToScreens({
        urls: product.gatewayUrls, bareUrl: bare!.url, users: [...users.screenPairs.flat(), ...users.pollers.slice(0, Math.max(0, plan.sockets - plan.screenPairs * 2))],
        pairs: users.screenPairs, t: traders(product.url), rate,
      });
    }
    return figures;
  } finally {
    await bare?.stop().catch(() => undefined);
    await product?.stop().catch(() => undefined);
    await site.dispose();
  }
}

/** The 25 posters post two requests each: 50 open requests. */
async function fillMarket(t: Traders, posters: readonly SeededUser[], rate: number): Promise<void> {
  const posted = progress('open requests posted', posters.length * 2, 10);
  await Promise.all(posters.map(async (u, i) => {
    for (const k of [0, 1]) { await t.post(u, smallRequest(rate, 2 * i + k)); posted.tick(); }
  }));
  posted.end();
}

async function main(): Promise<void> {
  const started = performance.now();
  const machine = {
    cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version,
    platform: `${process.platform}/${process.arch}`, loadAverage: loadavg()[0]!, date: new Date().toISOString(),
  };
  step(`machine: ${machine.cpus} CPUs (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}, load average ${machine.loadAverage.toFixed(2)}`);
  if (machine.loadAverage > machine.cpus) step('the load average is above the CPU count: other work competes, and every figure will be noisy');
  const results: ModeFigures[] = [];
  const dir = fileURLToPath(new URL('./results', import.meta.url));
  mkdirSync(dir, { recursive: true });
  // Written after each mode, so that a failure in the next keeps what was measured.
  const write = () => {
    const { json, markdown } = report(machine, plan, results);
    writeFileSync(join(dir, 'latest.json'), JSON.stringify(json, null, 2));
    writeFileSync(join(dir, 'latest.md'), markdown);
    return markdown;
  };
  let markdown = '';
  for (const mode of modes) {
    results.push(await benchMode(mode));
    markdown = write();
  }
  console.log(`\n${markdown}`);
  step(`written to ${join(dir, 'latest.json')} and latest.md (${seconds(performance.now() - started)} in all)`);
}

// Stopped from outside: exit through process.exit, so the product's processes are killed too (product.ts).
process.once('SIGTERM', () => process.exit(143));
try {
  await main();
  process.exit(0);
} catch (err) {
  if (err instanceof BenchFailure) {
    console.error(`\nbench failed: ${err.message}\nwhat to do: ${err.hint}`);
  } else {
    console.error('\nbench failed:', err);
  }
  process.exit(1);
}
