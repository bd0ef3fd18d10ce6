/**
 * The full exchange: two traders (a poster and an accepter, each with a GBP and a CLP account and their own
 * browser's cookies) go through one trade — post a request, the other accepts it, the poster confirms, both read
 * the bank details, the accepter completes it, and each rates the other. k6's VUs share no memory, so one VU plays
 * both traders of its pair; many VUs are many pairs trading at once. A free plan allows two exchanges a day, so a
 * pair trades twice and is then replaced by a new one. Proves a whole trade's writes keep within budget under
 * concurrent trades, and `trade_duration` shows how long a trade takes end to end.
 */
import { fail, group } from 'k6';
import type { Options } from 'k6/options';
import { Counter, Trend } from 'k6/metrics';
import {
  addBankAccounts, bodyOf, call, currentRate, expectStatus, newUser, onceAccountsKnown, retryWhile, thresholds, waitFor, type User,
} from './lib/puente.ts';

const tradesCompleted = new Counter('trades_completed');
const tradeDuration = new Trend('trade_duration', true);

export const options: Options = {
  scenarios: {
    trading_pairs: {
      executor: 'ramping-vus', startVUs: 0,
      stages: [{ target: 20, duration: '1m' }, { target: 20, duration: '3m' }, { target: 0, duration: '30s' }],
      gracefulRampDown: '1m',
    },
  },
  thresholds: {
    ...thresholds(500, 1500, {
      'exchange.createRequest': [500, 1500], 'exchange.createMatch': [500, 1500], 'exchange.confirmMatch': [500, 1500],
      'exchange.completeMatch': [500, 1500], 'rating.create': [500, 1500],
    }),
    trades_completed: ['count>0'],
    trade_duration: ['p(95)<10000'],
  },
};

interface Pair { poster: User; accepter: User; trades: number }
let pair: Pair | undefined;

function newPair(): Pair {
  const poster = newUser('poster', 2 * (__VU - 1));
  const accepter = newUser('accepter', 2 * (__VU - 1) + 1);
  addBankAccounts(poster);
  addBankAccounts(accepter);
  return { poster, accepter, trades: 0 };
}

export default function (): void {
  if (!pair || pair.trades >= 2) pair = newPair();
  const { poster, accepter } = pair;
  pair.trades += 1;
  const started = Date.now();

  const requestId = group('post', () => {
    const res = onceAccountsKnown(poster, 'exchange.createRequest', {
      body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 25, exchangeRate: currentRate() },
    });
    if (!expectStatus(res, 'exchange.createRequest', 201)) fail(`posting answered ${res.status}: ${String(res.body)}`);
    return bodyOf<{ id: number }>(res)!.id;
  });

  const matchId = group('accept', () => {
    // The request reaches the market at once; the accepter's accounts may still be on their way over the bus.
    const res = onceAccountsKnown(accepter, 'exchange.createMatch', { body: { exchangeRequestId: requestId } });
    if (!expectStatus(res, 'exchange.createMatch', 201)) fail(`accepting answered ${res.status}: ${String(res.body)}`);
    return bodyOf<{ id: number }>(res)!.id;
  });

  group('confirm', () => {
    // The poster sees the match on the request's page, then confirms it.
    const seen = waitFor(() => bodyOf<{ id: number } | null>(call(poster, 'exchange.matchForRequest', { params: { requestId } })));
    if (!seen) fail(`the poster never saw the match of request ${requestId}`);
    expectStatus(call(poster, 'exchange.confirmMatch', { params: { id: matchId } }), 'exchange.confirmMatch', 200);
  });

  group('bank details', () => {
    for (const trader of [poster, accepter]) {
      expectStatus(call(trader, 'exchange.matchAccounts', { params: { id: matchId } }), 'exchange.matchAccounts', 200);
    }
  });

  group('complete', () => {
    expectStatus(call(accepter, 'exchange.completeMatch', { params: { id: matchId } }), 'exchange.completeMatch', 200);
  });

  group('rate', () => {
    for (const [from, to] of [[accepter, poster], [poster, accepter]] as const) {
      // The rating service hears of the completion over the bus: until then the match is not rateable.
      const res = retryWhile(from, 'rating.create', { body: { exchangeMatchId: matchId, toUserId: to.id, rating: 5, comment: 'Smooth trade' } }, [403, 404, 409]);
      expectStatus(res, 'rating.create', 201);
    }
    expectStatus(call(poster, 'rating.forMatch', { params: { exchangeMatchId: matchId } }), 'rating.forMatch', 200);
  });

  tradesCompleted.add(1);
  tradeDuration.add(Date.now() - started);
}
