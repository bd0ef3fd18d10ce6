/**
 * Target 4: `crowd` users accept one open request at the same moment, several rounds. Each round must give exactly
 * one match (one 201, the rest 409) and the requester must see that one match; otherwise the bench fails loudly.
 * Every contender first reads the request (opening its connection, as a browser showing the card has), then all
 * accept at once. A round's winner has used a day's exchange and leaves the crowd; a spare takes its place.
 * A first round is not counted (printed, and kept as `warmUp`): it is the first accept the process ever answers, right
 * after the overload, and its cold path (the code's first runs, the heap the overload left) delays all 100 queued
 * behind it, as the warm-up trade does for targets 3 and change → screen.
 * The baseline: as many calls at once, as many rounds, answered a small JSON by bare Fastify.
 */
import { performance } from 'node:perf_hooks';
import { ExchangeMatchList, type ExchangeRate } from '@puente/contracts';
import { generatorCpu } from './crowd.ts';
import { BenchFailure, percentile, PRODUCT_HINT, step } from './load.ts';
import type { SeededUser } from './seed.ts';
import { smallRequest, type Traders } from './traders.ts';

export interface AcceptFigures {
  rounds: number;
  crowd: number;
  p50: number;
  p99: number;
  max: number;
  /** The winning accept's time in each round. */
  winners: number[];
  /** The round before the counted ones. */
  warmUp: { p50: number; p99: number; winner: number };
  /** The load generator's share of a CPU during the rounds. */
  generatorCpu: number;
  /** The same number of calls at once from bare Fastify (when given its address). */
  baselineP50?: number;
  baselineP99?: number;
}

export async function concurrentAccepts(opts: {
  t: Traders; rate: ExchangeRate; posters: readonly SeededUser[]; contenders: readonly SeededUser[]; crowd: number; rounds: number; bareUrl?: string;
}): Promise<AcceptFigures> {
  const cpu = generatorCpu();
  const spares = [...opts.contenders.slice(opts.crowd)];
  let crowd = opts.contenders.slice(0, opts.crowd);
  if (crowd.length < opts.crowd || spares.length < opts.rounds || opts.posters.length < opts.rounds + 1) {
    throw new BenchFailure('not enough seeded contenders or posters for the accept rounds', 'Seed more users (run.ts).');
  }
  const latencies: number[] = [];
  const winners: number[] = [];
  let warmUp: AcceptFigures['warmUp'] | undefined;
  for (let round = 0; round <= opts.rounds; round++) {
    const poster = opts.posters[round]!;
    const request = await opts.t.post(poster, smallRequest(opts.rate.gbpToClp, round));
    await Promise.all(crowd.map(async (u) => (await opts.t.call(`/api/exchange-requests/${request.id}`, { cookie: u.cookie })).arrayBuffer()));
    const outcomes = await Promise.all(crowd.map(async (u) => {
      const started = performance.now();
      const res = await opts.t.accept(u, request.id);
      await res.arrayBuffer();
      return { user: u, status: res.status, ms: performance.now() - started };
    }));
    const won = outcomes.filter((o) => o.status === 201);
    const refused = outcomes.filter((o) => o.status === 409);
    if (won.length !== 1 || refused.length !== crowd.length - 1) {
      const statuses = outcomes.reduce<Record<number, number>>((s, o) => ({ ...s, [o.status]: (s[o.status] ?? 0) + 1 }), {});
      throw new BenchFailure(`round ${round}: ${crowd.length} accepts of request ${request.id} answered ${JSON.stringify(statuses)}, not one 201 and the rest 409`, PRODUCT_HINT);
    }
    const seen = ExchangeMatchList.parse(await (await opts.t.call(`/api/exchange-matches`, { cookie: poster.cookie })).json());
    if (seen.filter((m) => m.exchangeRequestId === request.id).length !== 1) {
      throw new BenchFailure(`round ${round}: the requester sees ${seen.length} matches of request ${request.id}`, PRODUCT_HINT);
    }
    crowd = [...crowd.filter((u) => u !== won[0]!.user), ...spares.splice(0, 1)];
    const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const said = `1 × 201, ${refused.length} × 409; p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, the 201 ${won[0]!.ms.toFixed(1)} ms`;
    if (round === 0) {
      warmUp = { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), winner: won[0]!.ms };
      step(`warm-up round (not counted): ${said}`);
      continue;
    }
    latencies.push(...outcomes.map((o) => o.ms));
    winners.push(won[0]!.ms);
    step(`round ${round}/${opts.rounds}: ${said}`);
  }
  const used = cpu.share();
  const sorted = Float64Array.from(latencies).sort();
  const figures: AcceptFigures = {
    rounds: opts.rounds, crowd: opts.crowd, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1)!, winners, warmUp: warmUp!, generatorCpu: used,
  };
  step(`generator ${(used * 100).toFixed(0)} % of a CPU during the rounds`);
  if (opts.bareUrl) {
    const bare: number[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      bare.push(...await Promise.all(Array.from({ length: opts.crowd }, async () => {
        const started = performance.now();
        await (await fetch(`${opts.bareUrl}/api/notifications/count`)).arrayBuffer();
        return performance.now() - started;
      })));
    }
    const b = Float64Array.from(bare).sort();
    figures.baselineP50 = percentile(b, 0.5);
    figures.baselineP99 = percentile(b, 0.99);
    step(`bare Fastify, ${opts.crowd} calls at once × ${opts.rounds}: p50 ${figures.baselineP50.toFixed(1)} ms, p99 ${figures.baselineP99.toFixed(1)} ms`);
  }
  return figures;
}
