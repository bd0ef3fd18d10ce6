/**
 * Benchmark (not a test): the exchange service through the gateway, in embedded mode (issue 10's "Done when").
 *
 *   node infra/bench/exchange.ts            (from the repository root)
 *   npm run bench:exchange -w @puente/infra
 *
 * Starts Puente in this process on a fresh temporary DATA_DIR, signs users up through the gateway as a browser
 * would, fills the market with 500 open requests, then measures:
 *   1. GET /api/exchange-requests as a signed-in user (default page of 50, and ?limit=500): requests/s, p50, p99;
 *   2. 100 concurrent POST /api/exchange-matches on one open request, several rounds: p50, p99, and the outcomes
 *      (exactly one 201 and 99 × 409, or the script fails);
 * and, as a baseline on the same machine with the same load generator, a bare Fastify server answering the same
 * JSON. It prints a table with the ratios. infra/bench/README.md says how to read it.
 *
 * Knobs (environment): BENCH_LIST_REQUESTS (2000), BENCH_LIST_500_REQUESTS (500), BENCH_CONCURRENCY (50),
 * BENCH_ACCEPT_ROUNDS (5), BENCH_SETUP_CONCURRENCY (8), LOG_LEVEL (warn).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import {
  ExchangeMatch, ExchangeRate, ExchangeRequest, ExchangeRequestList, SignupRequestResponse,
} from '@puente/contracts';
import { startEmbedded, type Embedded } from '../embedded.ts';
import { BenchFailure, step, seconds, sleep, progress, pool, figures, ms, caller, unexpected, PRODUCT_HINT, load, type Figures } from './load.ts';

// ---------------------------------------------------------------------------------------------------------------
// Settings

function whole(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max} (got "${raw}"). Unset it to use ${fallback}.`);
    process.exit(2);
  }
  return value;
}

const LIST_REQUESTS = whole('BENCH_LIST_REQUESTS', 2000, 10, 1_000_000);
const LIST_500_REQUESTS = whole('BENCH_LIST_500_REQUESTS', 500, 10, 1_000_000);
const CONCURRENCY = whole('BENCH_CONCURRENCY', 50, 1, 1000);
const ACCEPT_ROUNDS = whole('BENCH_ACCEPT_ROUNDS', 5, 1, 50);
const SETUP_CONCURRENCY = whole('BENCH_SETUP_CONCURRENCY', 8, 1, 64);

/** Free plan: 2 exchanges per user per UTC day, so 250 posters × 2 = 500 open requests. */
const POSTERS = 250;
const REQUESTS_PER_POSTER = 2;
const OPEN_REQUESTS = POSTERS * REQUESTS_PER_POSTER;
const CROWD = 100;
/** A round's winner has used its day (probe + accept) and leaves the crowd: one spare matcher per later round. */
const MATCHERS = CROWD + ACCEPT_ROUNDS - 1;
/** How long a new user's accounts may take to reach the exchange service's projection (through the bus). */
const PROJECTION_WAIT_MS = 30_000;

const ADMIN = { email: 'bench-admin@puente.test', password: 'bench admin password', code: 'BENCH-CODE' };
const PASSWORD = 'bench password 1';

/** Generous gateway limits (gateway/src/settings.ts): the bench signs hundreds of users up from one IP. */
const RATE_LIMITS = {
  RATE_LIMIT_SIGNUP_IP: '100000/1h',
  RATE_LIMIT_LOGIN_IP: '100000/15m',
  RATE_LIMIT_LOGIN_ACCOUNT_IP: '1000/15m',
  RATE_LIMIT_LOGIN_ACCOUNT: '1000/1h',
  RATE_LIMIT_REFERRAL_IP: '100000/15m',
};

const GBP_ACCOUNT = { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', sortCode: '04-00-04' };
const CLP_ACCOUNT = { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', rut: '12.345.678-5', accountType: 'vista', email: 'bench@example.cl' };

// ---------------------------------------------------------------------------------------------------------------
// Users

interface User { email: string; cookie: string }

function setupCalls(base: string) {
  const call = caller(base);
  const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('puente_session='))?.split(';')[0];

  /** Sign-up with the admin's referral code, the verification token from the answer, verify, log in. */
  async function signUp(email: string, firstName: string, lastName: string): Promise<User> {
    const signup = await call('/api/signup/request', { body: { email, password: PASSWORD, firstName, lastName, referralCode: ADMIN.code } });
    if (signup.status !== 201) {
      throw await unexpected(`sign-up of ${email} (POST /api/signup/request)`, signup, signup.status === 429
        ? 'The gateway\'s sign-up limit refused it: raise RATE_LIMIT_SIGNUP_IP in infra/bench/exchange.ts (RATE_LIMITS).'
        : 'Check the referral code (ADMIN_REFERRAL_CODE) and the sign-up rules in services/identity.');
    }
    const { verificationToken } = SignupRequestResponse.parse(await signup.json());
    if (!verificationToken) {
      throw new BenchFailure(`sign-up of ${email} gave no verificationToken`, 'Identity hides it when NODE_ENV=production or EXPOSE_VERIFICATION_TOKEN=false: unset those for the bench.');
    }
    const verify = await call('/api/signup/verify', { body: { token: verificationToken } });
    if (verify.status !== 200) throw await unexpected(`verifying ${email} (POST /api/signup/verify)`, verify, PRODUCT_HINT);
    await verify.arrayBuffer();
    return login(email, PASSWORD);
  }

  async function login(email: string, password: string): Promise<User> {
    const res = await call('/api/auth/login', { body: { email, password } });
    const cookie = sessionCookie(res);
    if (res.status !== 200 || !cookie) {
      throw await unexpected(`login of ${email} (POST /api/auth/login)`, res, res.status === 429
        ? 'The gateway\'s login limits refused it: raise RATE_LIMIT_LOGIN_IP / RATE_LIMIT_LOGIN_ACCOUNT_IP in infra/bench/exchange.ts.'
        : PRODUCT_HINT);
    }
    await res.arrayBuffer();
    return { email, cookie };
  }

  async function addAccounts(user: User, holder: string): Promise<void> {
    for (const account of [GBP_ACCOUNT, CLP_ACCOUNT]) {
      const res = await call('/api/bank-accounts', { cookie: user.cookie, body: { ...account, accountHolder: holder } });
      if (res.status !== 201) throw await unexpected(`adding a ${account.currency} account for ${user.email} (POST /api/bank-accounts)`, res, PRODUCT_HINT);
      await res.arrayBuffer();
    }
  }

  /**
   * Posts a request, retrying while the exchange service does not know the user's accounts yet (they reach its
   * projection through the bus a moment after accounts answered 201).
   */
  async function postRequest(user: User, body: { fromCurrency: string; toCurrency: string; amount: number; exchangeRate: number }): Promise<ExchangeRequest> {
    const deadline = performance.now() + PROJECTION_WAIT_MS;
    for (;;) {
      const res = await call('/api/exchange-requests', { cookie: user.cookie, body });
      if (res.status === 201) return ExchangeRequest.parse(await res.json());
      const text = await res.text();
      const needsAccounts = res.status === 403 && /both GBP and CLP accounts/.test(text);
      if (!needsAccounts || performance.now() > deadline) {
        throw new BenchFailure(`posting a request as ${user.email} (POST /api/exchange-requests) answered ${res.status}: ${text.slice(0, 500)}`, needsAccounts
          ? `The exchange service still did not know this user's bank accounts after ${PROJECTION_WAIT_MS / 1000} s: the accounts events do not reach its projection (services/exchange, the bank-account.added consumer). Rerun with LOG_LEVEL=info.`
          : /limit/i.test(text)
            ? 'A plan limit refused it: the bench assumes a fresh data dir and the free plan\'s 2 exchanges per day per user.'
            : PRODUCT_HINT);
      }
      await sleep(100);
    }
  }

  return { call, signUp, addAccounts, postRequest };
}

// ---------------------------------------------------------------------------------------------------------------
// The run

/** Everything started, so that a failure or Ctrl+C still stops the app and removes the data dir. */
const running: { app?: Embedded; bare?: { close(): Promise<unknown> }; dataDir?: string } = {};

async function cleanUp(): Promise<void> {
  await running.bare?.close().catch(() => undefined);
  await running.app?.stop().catch((err: unknown) => console.error(`stopping Puente failed: ${(err as Error).message}`));
  if (running.dataDir) rmSync(running.dataDir, { recursive: true, force: true });
  running.bare = undefined;
  running.app = undefined;
  running.dataDir = undefined;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const [load1] = loadavg();
  console.log(`Exchange benchmark: ${POSTERS} posters × ${REQUESTS_PER_POSTER} = ${OPEN_REQUESTS} open requests, ${MATCHERS} matchers, ${ACCEPT_ROUNDS} rounds of ${CROWD} concurrent accepts.`);

  running.dataDir = mkdtempSync(join(tmpdir(), 'puente-bench-'));
  step(`starting Puente in embedded mode (data in ${running.dataDir})`);
  running.app = await startEmbedded({
    ...process.env,
    ...RATE_LIMITS,
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: running.dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
    BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    EXPOSE_VERIFICATION_TOKEN: 'true',
  }, { quiet: true, printAdmin: () => {} });
  const base = running.app.url.replace('localhost', '127.0.0.1');
  step(`Puente is up at ${base} (${seconds(performance.now() - startedAt)})`);
  const { call, signUp, addAccounts, postRequest } = setupCalls(base);

  // Users. Matchers first, so their accounts have long reached the exchange service when the rounds start.
  step(`creating ${MATCHERS} matchers, ${POSTERS} posters and 1 viewer through the gateway (sign-up, verify, login, GBP + CLP accounts), ${SETUP_CONCURRENCY} at a time`);
  const people = [
    ...Array.from({ length: MATCHERS }, (_, i) => ({ kind: 'matcher' as const, i })),
    ...Array.from({ length: POSTERS }, (_, i) => ({ kind: 'poster' as const, i })),
  ];
  const made = progress('users', people.length, 50);
  const users = await pool(people, SETUP_CONCURRENCY, async ({ kind, i }) => {
    const lastName = `${kind === 'matcher' ? 'Matcher' : 'Poster'} ${i + 1}`;
    const user = await signUp(`bench-${kind}-${i + 1}@puente.test`, 'Bench', lastName);
    await addAccounts(user, `Bench ${lastName}`);
    made.tick();
    return user;
  });
  made.end();
  const matchers = users.slice(0, MATCHERS);
  const posters = users.slice(MATCHERS);
  // The viewer has no accounts: the list it sees is exactly the market (no own requests, no accepted ones).
  const viewer = await signUp('bench-viewer@puente.test', 'Bench', 'Viewer');

  const rateRes = await call('/api/exchange-rate', { cookie: viewer.cookie });
  if (rateRes.status !== 200) throw await unexpected('GET /api/exchange-rate', rateRes, PRODUCT_HINT);
  const rate = ExchangeRate.parse(await rateRes.json()).gbpToClp;

  // The market: each poster posts one GBP→CLP and one CLP→GBP request, within the free plan's per-exchange limits.
  step(`posting ${OPEN_REQUESTS} open requests at the market rate ${rate} (retrying while the exchange service learns each poster's accounts)`);
  const posted = progress('requests', OPEN_REQUESTS, 100);
  const ownerOf = new Map<number, User>();
  await pool(posters, SETUP_CONCURRENCY, async (poster, i) => {
    for (const body of [
      { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 20 + (i % 180) + 0.5, exchangeRate: rate },
      { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 25_000 + ((i * 997) % 200_000), exchangeRate: rate },
    ]) {
      const request = await postRequest(poster, body);
      ownerOf.set(request.id, poster);
      posted.tick();
    }
  });
  posted.end();

  // Each matcher proves the exchange service knows its accounts: a small request, posted then cancelled (it counts
  // as one of the day's two exchanges; the accept is the second).
  step(`checking the exchange service knows each matcher's accounts (a request posted and cancelled per matcher)`);
  const probed = progress('matchers', MATCHERS, 50);
  await pool(matchers, SETUP_CONCURRENCY, async (matcher) => {
    const probe = await postRequest(matcher, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 1, exchangeRate: rate });
    const res = await call(`/api/exchange-requests/${probe.id}/cancel`, { method: 'PATCH', cookie: matcher.cookie });
    if (res.status !== 200) throw await unexpected(`cancelling a probe request (PATCH /api/exchange-requests/${probe.id}/cancel)`, res, PRODUCT_HINT);
    await res.arrayBuffer();
    probed.tick();
  });
  probed.end();

  // ---- Measurement 1: the market list (its bare baseline is measured last, with Puente stopped).
  const listUrl = `${base}/api/exchange-requests`;
  const asViewer = { cookie: viewer.cookie };
  const first = await fetch(listUrl, { headers: asViewer });
  if (first.status !== 200) throw await unexpected('GET /api/exchange-requests', first, PRODUCT_HINT);
  const total = first.headers.get('x-total-count');
  const page50 = ExchangeRequestList.parse(await first.json());
  const whole500 = await fetch(`${listUrl}?limit=500`, { headers: asViewer });
  if (whole500.status !== 200) throw await unexpected('GET /api/exchange-requests?limit=500', whole500, PRODUCT_HINT);
  const page500 = ExchangeRequestList.parse(await whole500.json());
  if (page50.length !== 50 || page500.length !== OPEN_REQUESTS || total !== String(OPEN_REQUESTS)) {
    throw new BenchFailure(`the market list shows ${page50.length} items on the default page, ${page500.length} with ?limit=500, x-total-count ${total}; expected 50, ${OPEN_REQUESTS}, ${OPEN_REQUESTS}`,
      `${PRODUCT_HINT} (services/exchange/src/domain/market.ts)`);
  }

  step(`measuring GET /api/exchange-requests with ${OPEN_REQUESTS} open requests, as a signed-in user, ${CONCURRENCY} concurrent`);
  await load('warm-up', listUrl, { n: Math.min(300, LIST_REQUESTS), concurrency: CONCURRENCY, headers: asViewer });
  const gw50 = await load('GET /api/exchange-requests', listUrl, { n: LIST_REQUESTS, concurrency: CONCURRENCY, headers: asViewer });
  await load('warm-up', `${listUrl}?limit=500`, { n: Math.min(100, LIST_500_REQUESTS), concurrency: CONCURRENCY, headers: asViewer });
  const gw500 = await load('GET /api/exchange-requests?limit=500', `${listUrl}?limit=500`, { n: LIST_500_REQUESTS, concurrency: CONCURRENCY, headers: asViewer });

  // ---- Measurement 2: 100 concurrent accepts of one open request, several rounds with a fresh crowd.
  step(`measuring ${ACCEPT_ROUNDS} rounds of ${CROWD} concurrent POST /api/exchange-matches on one open request`);
  let available = [...matchers];
  const acceptLatencies: number[] = [];
  const winnerLatencies: number[] = [];
  const targets = page50.slice(0, ACCEPT_ROUNDS);
  for (const [round, target] of targets.entries()) {
    const crowd = available.slice(0, CROWD);
    // Warm-up: each matcher reads the request (as the app does before accepting), which also opens its connection.
    await Promise.all(crowd.map(async (m) => {
      const res = await call(`/api/exchange-requests/${target.id}`, { cookie: m.cookie });
      if (res.status !== 200) throw await unexpected(`GET /api/exchange-requests/${target.id}`, res, PRODUCT_HINT);
      await res.arrayBuffer();
    }));
    const outcomes = await Promise.all(crowd.map(async (matcher) => {
      const t0 = performance.now();
      const res = await call('/api/exchange-matches', { cookie: matcher.cookie, body: { exchangeRequestId: target.id } });
      const text = await res.text();
      return { matcher, status: res.status, text, ms: performance.now() - t0 };
    }));
    const counts = new Map<number, number>();
    for (const o of outcomes) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
    const won = outcomes.filter((o) => o.status === 201);
    const shownCounts = [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${n} × ${status}`).join(', ');
    if (won.length !== 1 || counts.get(409) !== CROWD - 1) {
      const odd = outcomes.find((o) => o.status !== 201 && o.status !== 409);
      throw new BenchFailure(
        `round ${round + 1}: ${CROWD} concurrent accepts of request #${target.id} gave ${shownCounts}; expected exactly 1 × 201 and ${CROWD - 1} × 409${odd ? ` (a ${odd.status}: ${odd.text.slice(0, 300)})` : ''}`,
        won.length > 1
          ? 'More than one accept won: the one-live-match-per-request guarantee is broken (services/exchange/src/routes/exchange-matches.ts, createMatch, and the unique index on the live match). This is a product bug.'
          : odd && /limit/i.test(odd.text)
            ? 'A matcher hit the plan limit: each free matcher may make 2 exchanges a day (the bench uses 1 for the probe, 1 for an accept).'
            : PRODUCT_HINT);
    }
    const winner = won[0]!;
    const match = ExchangeMatch.parse(JSON.parse(winner.text));
    // The requester sees the one match, held by the winner.
    const owner = ownerOf.get(target.id)!;
    const seen = await call(`/api/exchange-matches/request/${target.id}`, { cookie: owner.cookie });
    const seenMatch = seen.status === 200 ? (await seen.json()) as { id?: number; matchedById?: number } | null : undefined;
    if (seenMatch?.id !== match.id || seenMatch.matchedById !== match.matchedById) {
      throw new BenchFailure(`round ${round + 1}: the requester of #${target.id} sees ${JSON.stringify(seenMatch)}, not the winning match ${match.id}`, PRODUCT_HINT);
    }
    const latencies = outcomes.map((o) => o.ms);
    acceptLatencies.push(...latencies);
    winnerLatencies.push(winner.ms);
    const f = figures('', latencies, CROWD);
    console.log(`  round ${round + 1}/${ACCEPT_ROUNDS}: request #${target.id}: ${shownCounts}; p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms, the 201 in ${ms(winner.ms)} ms`);
    available = available.filter((m) => m !== winner.matcher);
  }
  const accepts = figures(`POST /api/exchange-matches, ${CROWD} at once × ${ACCEPT_ROUNDS}`, acceptLatencies, CROWD);

  // ---- The baseline, with Puente stopped so that nothing else runs in this process: the ceiling of this load
  // generator and Node's HTTP stack on this machine, for the same JSON.
  step('stopping Puente and removing its data dir');
  await cleanUp();
  step('measuring the baseline: a bare Fastify server on 127.0.0.1 answering the same JSON, same load generator and concurrency');
  const bare = Fastify({ logger: false });
  bare.get('/api/exchange-requests', async (request) => ((request.query as { limit?: string }).limit === '500' ? page500 : page50));
  running.bare = bare;
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareAddress = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof bareAddress === 'object' && bareAddress ? bareAddress.port : 0}/api/exchange-requests`;
  await load('warm-up', bareUrl, { n: LIST_REQUESTS, concurrency: CONCURRENCY });
  const bare50 = await load('bare Fastify, 50 items', bareUrl, { n: LIST_REQUESTS, concurrency: CONCURRENCY });
  await load('warm-up', `${bareUrl}?limit=500`, { n: LIST_500_REQUESTS, concurrency: CONCURRENCY });
  const bare500 = await load('bare Fastify, 500 items', `${bareUrl}?limit=500`, { n: LIST_500_REQUESTS, concurrency: CONCURRENCY });
  await bare.close();
  running.bare = undefined;

  // ---- The table.
  const rows: [Figures, Figures | undefined][] = [[gw50, bare50], [bare50, undefined], [gw500, bare500], [bare500, undefined], [accepts, undefined]];
  const labelWidth = Math.max(...rows.map(([f]) => f.label.length));
  const pad = (s: string, n: number) => s.padStart(n);
  console.log('');
  console.log(`${'what'.padEnd(labelWidth)}  ${pad('n', 6)}  ${pad('conc', 4)}  ${pad('req/s', 8)}  ${pad('p50 ms', 8)}  ${pad('p99 ms', 8)}  ${pad('req/s ÷ bare', 12)}  ${pad('p99 ÷ bare', 10)}`);
  for (const [f, baseline] of rows) {
    console.log(`${f.label.padEnd(labelWidth)}  ${pad(String(f.n), 6)}  ${pad(String(f.concurrency), 4)}  ${pad(f.rps === undefined ? '-' : f.rps.toFixed(0), 8)}  ${pad(ms(f.p50), 8)}  ${pad(ms(f.p99), 8)}  ${pad(baseline && f.rps && baseline.rps ? (f.rps / baseline.rps).toFixed(3) : '', 12)}  ${pad(baseline ? `${(f.p99 / baseline.p99).toFixed(1)}×` : '', 10)}`);
  }
  const winners = figures('', winnerLatencies, 1);
  console.log(`\nThe winning accept of each round: p50 ${ms(winners.p50)} ms, max ${ms(Math.max(...winnerLatencies))} ms; every round gave exactly 1 × 201 and ${CROWD - 1} × 409.`);
  const cpu = cpus();
  console.log(`Machine: ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}; load average ${load1?.toFixed(2)} at the start (other work on the machine skews every figure). Total run ${seconds(performance.now() - startedAt)}.`);
}

process.once('SIGINT', () => {
  console.error('\ninterrupted: stopping Puente and removing the data dir...');
  void cleanUp().finally(() => process.exit(130));
});

try {
  await main();
  process.exit(0);
} catch (err) {
  if (process.stdout.isTTY) process.stdout.write('\n');
  if (err instanceof BenchFailure) {
    console.error(`\nBenchmark failed: ${err.message}\nWhat to do: ${err.hint}`);
  } else {
    console.error(`\nBenchmark failed: ${(err as Error).stack ?? String(err)}`);
    console.error(`What to do: if it says EADDRINUSE or ECONNREFUSED, another program is in the way or Puente stopped; ${PRODUCT_HINT}`);
  }
  await cleanUp();
  process.exit(1);
}
