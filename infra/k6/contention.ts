/**
 * Contention burst: one open request and many traders accepting it at the same instant. setup() posts the request;
 * each VU signs its own trader up, adds their accounts, waits for the common start time, and accepts. Exactly one
 * acceptance may win (201); every other one must be refused as already taken (409) — never a second match, never
 * a 5xx. Proves the accept is serialized correctly under a burst and how long the losers wait for their answer.
 */
import { check, fail, sleep } from 'k6';
import type { Options } from 'k6/options';
import { Counter } from 'k6/metrics';
import {
  addBankAccounts, bodyOf, call, currentRate, expectStatus, newUser, onceAccountsKnown, retryWhile, thresholds,
} from './lib/puente.ts';

const TRADERS = Number(__ENV.TRADERS || 50);
/** Seconds for every VU to sign up and add its accounts before the burst. */
const PREPARE_SECONDS = Number(__ENV.PREPARE_SECONDS || 60);

const won = new Counter('accepts_won');
const lost = new Counter('accepts_refused_taken');

export const options: Options = {
  scenarios: {
    burst: { executor: 'per-vu-iterations', vus: TRADERS, iterations: 1, maxDuration: '5m' },
  },
  setupTimeout: '2m',
  thresholds: {
    ...thresholds(1000, 3000, { 'exchange.createMatch': [1000, 3000] }),
    // One winner, whatever the number of traders.
    accepts_won: ['count==1'],
  },
};

interface Burst { requestId: number; startAt: number }

export function setup(): Burst {
  const poster = newUser('contended', TRADERS);
  addBankAccounts(poster);
  const res = onceAccountsKnown(poster, 'exchange.createRequest', {
    body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 50, exchangeRate: currentRate() },
  });
  if (!expectStatus(res, 'exchange.createRequest', 201)) fail(`posting answered ${res.status}: ${String(res.body)}`);
  return { requestId: bodyOf<{ id: number }>(res)!.id, startAt: Date.now() + PREPARE_SECONDS * 1000 };
}

export default function (burst: Burst): void {
  const trader = newUser('contender', __VU - 1);
  addBankAccounts(trader);
  // Its accounts reach the exchange service over the bus well within the preparation time.
  const wait = (burst.startAt - Date.now()) / 1000;
  if (wait > 0) sleep(wait);
  const res = retryWhile(trader, 'exchange.createMatch', { body: { exchangeRequestId: burst.requestId }, expect: [201, 409] }, [403], 30);
  expectStatus(res, 'exchange.createMatch', 201, 409);
  if (res.status === 201) won.add(1);
  if (res.status === 409) lost.add(1);
}

export function teardown(burst: Burst): void {
  // Whoever reads it now sees it matched.
  const reader = newUser('contention-check', TRADERS + 1);
  const res = call(reader, 'exchange.request', { params: { id: burst.requestId } });
  expectStatus(res, 'exchange.request', 200);
  check(res, { 'the contended request is matched': (r) => bodyOf<{ status: string }>(r)?.status === 'matched' });
}
