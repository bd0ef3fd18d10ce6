/**
 * Target 1: the polled market list through the gateway against a bare Fastify server answering the same JSON, side
 * by side: alternating rounds of the same length and connection count (autocannon), each signed-in connection a
 * different user. Three rounds each of: the product's 200s, the baseline's 200s, the product's 304s (the browser's
 * revalidation with If-None-Match).
 */
import autocannon from 'autocannon';
import { ExchangeRequestList } from '@puente/contracts';
import { BenchFailure, patiently, PRODUCT_HINT, step } from './load.ts';
import type { SeededUser } from './seed.ts';
import { startBare } from './bare.ts';

export interface RoundFigures {
  /** Answers a second with the round's status (200, or 304): a refusal (503) is fast, but no read served. */
  rps: number;
  p50: number; p99: number; requests: number; statuses: Record<string, number>; errors: number;
}

export interface PolledReadFigures {
  path: string;
  items: number;
  bytes: number;
  connections: number;
  roundSeconds: number;
  product200: RoundFigures[];
  baseline: RoundFigures[];
  product304: RoundFigures[];
}

/** The requests of a round the admission refused (503, or 429): answered at once, but no read served. */
export const refusedIn = (f: RoundFigures) => (f.statuses['503'] ?? 0) + (f.statuses['429'] ?? 0);

/** One autocannon round answering `status`: `users[i]` on connection i, with its ETag when given. */
async function round(url: string, status: 200 | 304, connections: number, seconds: number, headersOf: (i: number) => Record<string, string>): Promise<RoundFigures> {
  let next = 0;
  const result = await autocannon({
    url, connections, duration: seconds,
    setupClient: (client) => { client.setHeaders(headersOf(next++ % connections)); },
  });
  const statuses: Record<string, number> = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]));
  return {
    rps: (statuses[status] ?? 0) / result.duration, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total,
    statuses, errors: result.errors + result.timeouts,
  };
}

export async function polledReads(base: string, users: readonly SeededUser[], opts: { connections: number; roundSeconds: number; rounds: number }): Promise<PolledReadFigures> {
  const path = '/api/exchange-requests';
  const url = `${base}${path}`;
  const conns = Math.min(opts.connections, users.length);
  // What each user gets, and its ETag: the list must be the 50 open requests, as the contract says.
  const first = await Promise.all(users.slice(0, conns).map(async (u) => {
    const res = await patiently(() => fetch(url, { headers: { cookie: u.cookie } }));
    if (res.status !== 200) throw new BenchFailure(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`, PRODUCT_HINT);
    const text = await res.text();
    return { etag: res.headers.get('etag'), text, list: ExchangeRequestList.parse(JSON.parse(text)) };
  }));
  const sample = first[0]!;
  if (sample.list.length !== 50) throw new BenchFailure(`GET ${path} listed ${sample.list.length} requests, not 50`, 'The market must hold 50 open requests: check the posting step above.');
  if (first.some((f) => !f.etag)) throw new BenchFailure(`GET ${path} answered without an ETag`, PRODUCT_HINT);

  const server = await startBare({ '/list': sample.list });
  const baseline = { ...server, url: `${server.url}/list` };
  const figures: PolledReadFigures = {
    path, items: sample.list.length, bytes: Buffer.byteLength(sample.text), connections: conns, roundSeconds: opts.roundSeconds,
    product200: [], baseline: [], product304: [],
  };
  try {
    for (let r = 1; r <= opts.rounds; r++) {
      step(`round ${r}/${opts.rounds}: product 200s, bare Fastify, product 304s (${opts.roundSeconds} s each, ${conns} connections)`);
      figures.product200.push(await round(url, 200, conns, opts.roundSeconds, (i) => ({ cookie: users[i]!.cookie })));
      figures.baseline.push(await round(baseline.url, 200, conns, opts.roundSeconds, () => ({})));
      figures.product304.push(await round(url, 304, conns, opts.roundSeconds, (i) => ({ cookie: users[i]!.cookie, 'if-none-match': first[i]!.etag! })));
      const [ok, bare, not] = [figures.product200, figures.baseline, figures.product304].map((f) => f.at(-1)!) as [RoundFigures, RoundFigures, RoundFigures];
      const said = (f: RoundFigures) => `${f.rps.toFixed(0)} req/s (p99 ${f.p99.toFixed(1)} ms)`;
      step(`  200s ${said(ok)}, ${(ok.rps / bare.rps).toFixed(2)}× bare; bare ${said(bare)}; 304s ${said(not)}, ${(not.rps / bare.rps).toFixed(2)}× bare`
        + `${refusedIn(ok) + refusedIn(not) > 0 ? `; refused: ${refusedIn(ok)} of the 200s' requests, ${refusedIn(not)} of the 304s'` : ''}`);
    }
  } finally {
    await baseline.stop();
  }
  // A refusal (503 or 429: admission control) is the product's answer to load, counted in the statuses; anything
  // else but 200 and 304 is wrong.
  const bad = [...figures.product200, ...figures.product304].find((f) => f.errors > 0 || Object.keys(f.statuses).some((s) => !['200', '304', '429', '503'].includes(s)));
  if (bad) throw new BenchFailure(`the polled list answered ${JSON.stringify(bad.statuses)} with ${bad.errors} errors under load`, PRODUCT_HINT);
  return figures;
}
