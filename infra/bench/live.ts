/**
 * Target 3: with `sockets` /ws sockets open (each a signed-in user's), pairs of traders run whole exchanges — post,
 * accept, approve, complete, rate — and each live message the spec promises is timed from the moment the call
 * that caused it was sent to its arrival on the right user's socket (an upper bound: the call's own time is in it).
 * Every other socket must hear nothing.
 */
import { performance } from 'node:perf_hooks';
import { LiveMessage, type ExchangeRate } from '@puente/contracts';
import { generatorCpu } from './crowd.ts';
import { BenchFailure, percentile, pool, PRODUCT_HINT, progress, sleep, step } from './load.ts';
import type { SeededUser } from './seed.ts';
import { smallRequest, type Traders } from './traders.ts';

export interface LiveFigures {
  sockets: number;
  trades: number;
  messages: number;
  p50: number;
  p99: number;
  max: number;
  /** The same from the moment the causing call answered (a message may even come first: then 0). */
  afterAnswerP50: number;
  afterAnswerP99: number;
  /** The causing calls' own time. */
  callP50: number;
  callP99: number;
  /** Messages on a socket whose user was not a party: must be 0. */
  strays: number;
  missing: number;
  /** The load generator's share of a CPU during the exchanges. */
  generatorCpu: number;
}

/** How long the warm-up exchange's messages may take (the consumer groups forming after a start). */
const WARM_UP_WAIT_MS = 30_000;

interface Socket { user: SeededUser; ws: WebSocket; got: { message: Exclude<LiveMessage, { type: 'chat_message' | 'versions' }>; at: number }[] }

async function openSocket(url: string, user: SeededUser): Promise<Socket> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { headers: { cookie: user.cookie, origin: url } } as never);
  const socket: Socket = { user, ws, got: [] };
  ws.onmessage = (e) => {
    const message = LiveMessage.parse(JSON.parse(String(e.data)));
    // The chat's system messages and the announcements of changed polled routes are not what this measures:
    // notifications and match_success are.
    if (message.type !== 'chat_message' && message.type !== 'versions') socket.got.push({ message, at: performance.now() });
  };
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new BenchFailure(`the /ws socket of ${user.email} did not open`, PRODUCT_HINT));
  });
  return socket;
}

/** What a message says, to match it: a notification's type and request, or match_success and its match. */
const says = (m: Socket['got'][number]['message']) => (m.type === 'match_success' ? `match_success ${m.data.matchId}` : `${m.notification.type} ${m.notification.referenceId}`);

export async function liveLatency(opts: {
  urls: string[]; idle: readonly SeededUser[]; pairs: readonly [SeededUser, SeededUser][]; t: Traders; rate: ExchangeRate;
  concurrency: number; waitMs?: number;
}): Promise<LiveFigures> {
  const everyone = [...opts.pairs.flat(), ...opts.idle];
  const opened = progress('sockets open', everyone.length, 250);
  const sockets = new Map<number, Socket>();
  await pool(everyone, 50, async (user, i) => {
    sockets.set(user.id, await openSocket(opts.urls[i % opts.urls.length]!, user));
    opened.tick();
  });
  opened.end();

  const latencies: number[] = [];
  const afterAnswer: number[] = [];
  const calls: number[] = [];
  let missing = 0;
  let counted = true;
  /** Runs the call, then waits for each expected message on its user's socket; records the latencies. */
  async function expect(call: () => Promise<void>, expected: [SeededUser, string][]): Promise<void> {
    const sent = performance.now();
    await call();
    const answered = performance.now();
    if (counted) calls.push(answered - sent);
    await Promise.all(expected.map(async ([user, text]) => {
      const socket = sockets.get(user.id)!;
      const deadline = performance.now() + (counted ? opts.waitMs ?? 10_000 : WARM_UP_WAIT_MS);
      for (;;) {
        const hit = socket.got.find((g) => g.at >= sent && says(g.message) === text);
        if (hit) {
          if (!counted) return;
          latencies.push(hit.at - sent);
          afterAnswer.push(Math.max(0, hit.at - answered));
          return;
        }
        if (performance.now() > deadline) { if (counted) missing++; return; }
        await sleep(2);
      }
    }));
  }
  /** A pair's whole exchange, each live message it causes waited for. */
  async function exchange([requester, matcher]: [SeededUser, SeededUser], i: number): Promise<void> {
    const request = await opts.t.post(requester, smallRequest(opts.rate.gbpToClp, i));
    let matchId = 0;
    await expect(async () => { matchId = (await opts.t.acceptOk(matcher, request.id)).id; }, [[requester, `exchange_match ${request.id}`]]);
    await expect(() => opts.t.confirm(requester, matchId), [
      [matcher, `exchange_confirmed ${request.id}`], [requester, `match_success ${matchId}`], [matcher, `match_success ${matchId}`]]);
    await expect(() => opts.t.complete(matcher, matchId), [[requester, `exchange_completed ${request.id}`]]);
    await expect(() => opts.t.rate(requester, matchId, matcher.id), [[matcher, `rating ${request.id}`]]);
  }

  // An exchange first, not counted: the first events after a start wait for the consumer groups to form (and the
  // gateways' live channels start at the end of their topics, so what comes before they have joined never reaches
  // them). The pair's second exchange of the day, within the free plan's limit.
  counted = false;
  const warmUp = performance.now();
  await exchange(opts.pairs[0]!, opts.pairs.length);
  step(`a warm-up exchange's live messages came within ${(performance.now() - warmUp).toFixed(0)} ms; the exchanges measured follow`);
  counted = true;
  const cpu = generatorCpu();
  const traded = progress('exchanges with live messages', opts.pairs.length, 10);
  await pool(opts.pairs, opts.concurrency, async (pair, i) => {
    await exchange(pair, i);
    traded.tick();
  });
  traded.end();

  const strays = opts.idle.reduce((n, u) => n + sockets.get(u.id)!.got.length, 0);
  for (const s of sockets.values()) s.ws.close();
  const sorted = Float64Array.from(latencies).sort();
  const after = Float64Array.from(afterAnswer).sort();
  const own = Float64Array.from(calls).sort();
  const figures: LiveFigures = {
    sockets: sockets.size, trades: opts.pairs.length, messages: sorted.length,
    p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN,
    afterAnswerP50: percentile(after, 0.5), afterAnswerP99: percentile(after, 0.99),
    callP50: percentile(own, 0.5), callP99: percentile(own, 0.99), strays, missing, generatorCpu: cpu.share(),
  };
  step(`${figures.messages} live messages with ${figures.sockets} sockets open: p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms, `
    + `max ${figures.max.toFixed(1)} ms from the call; p50 ${figures.afterAnswerP50.toFixed(1)} ms, p99 ${figures.afterAnswerP99.toFixed(1)} ms after its answer `
    + `(the calls: p50 ${figures.callP50.toFixed(1)} ms, p99 ${figures.callP99.toFixed(1)} ms); ${missing} missing, ${strays} on the wrong sockets; `
    + `generator ${(figures.generatorCpu * 100).toFixed(0)} % of a CPU`);
  if (missing > 0 || strays > 0) {
    throw new BenchFailure(`${missing} live messages never arrived and ${strays} reached users who were not parties`, PRODUCT_HINT);
  }
  return figures;
}
