/**
 * What seeded users do through the public API, as a browser would (the session cookie, Origin on writes): add both
 * bank accounts, post requests, accept, approve, complete, rate. A failure says which call answered what.
 */
import { ExchangeMatch, ExchangeRequest } from '@puente/contracts';
import { BenchFailure, caller, patiently, pool, PRODUCT_HINT, sleep, unexpected } from './load.ts';
import type { SeededUser } from './seed.ts';

const GBP_ACCOUNT = { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', sortCode: '04-00-04' };
const CLP_ACCOUNT = { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', rut: '12.345.678-5', accountType: 'vista', email: 'bench@example.cl' };
/** How long a new account may take to reach the exchange service's projection (through the bus). */
const PROJECTION_WAIT_MS = 60_000;

export type Call = ReturnType<typeof caller>;

export function traders(base: string) {
  const direct = caller(base);
  /** Every call but an accept waits out a refusal with Retry-After (load.ts): target 4 times the accepts as answered. */
  const call: Call = (path, init) => patiently(() => direct(path, init));

  async function expectStatus(what: string, res: Response, status: number, hint = PRODUCT_HINT): Promise<unknown> {
    if (res.status !== status) throw await unexpected(what, res, hint);
    return res.status === 204 ? undefined : res.json();
  }

  async function addAccounts(user: SeededUser): Promise<void> {
    for (const account of [GBP_ACCOUNT, CLP_ACCOUNT]) {
      const res = await call('/api/bank-accounts', { cookie: user.cookie, body: { ...account, accountHolder: `${user.firstName} Bench` } });
      await expectStatus(`adding a ${account.currency} account for ${user.email}`, res, 201);
    }
  }

  /**
   * Posts a request; a 403 for missing accounts is retried while the exchange service's projection catches up with
   * the accounts just added.
   */
  async function post(user: SeededUser, body: { fromCurrency: 'GBP' | 'CLP'; toCurrency: 'GBP' | 'CLP'; amount: number; exchangeRate: number }): Promise<ExchangeRequest> {
    const deadline = Date.now() + PROJECTION_WAIT_MS;
    for (;;) {
      const res = await call('/api/exchange-requests', { cookie: user.cookie, body });
      if (res.status === 403 && Date.now() < deadline) { await res.arrayBuffer(); await sleep(250); continue; }
      return ExchangeRequest.parse(await expectStatus(`posting a request as ${user.email}`, res, 201));
    }
  }

  async function accept(user: SeededUser, requestId: number): Promise<Response> {
    return direct('/api/exchange-matches', { cookie: user.cookie, body: { exchangeRequestId: requestId } });
  }

  async function acceptOk(user: SeededUser, requestId: number): Promise<ExchangeMatch> {
    return ExchangeMatch.parse(await expectStatus(`accepting request ${requestId} as ${user.email}`, await accept(user, requestId), 201));
  }

  async function confirm(user: SeededUser, matchId: number): Promise<void> {
    await expectStatus(`approving match ${matchId}`, await call(`/api/exchange-matches/${matchId}/confirm`, { cookie: user.cookie, method: 'PUT' }), 200);
  }

  async function complete(user: SeededUser, matchId: number): Promise<void> {
    await expectStatus(`completing match ${matchId}`, await call(`/api/exchange-matches/${matchId}/complete`, { cookie: user.cookie, method: 'PUT' }), 200);
  }

  async function rate(user: SeededUser, matchId: number, toUserId: number): Promise<void> {
    const res = await call('/api/ratings', { cookie: user.cookie, body: { exchangeMatchId: matchId, toUserId, rating: 5 } });
    await expectStatus(`rating match ${matchId}`, res, 201);
  }

  async function cancel(user: SeededUser, requestId: number): Promise<void> {
    await expectStatus(`cancelling request ${requestId}`, await call(`/api/exchange-requests/${requestId}/cancel`, { cookie: user.cookie, method: 'PATCH' }), 200);
  }

  /** Both accounts for each user, `concurrency` users at a time. */
  async function withAccounts(users: readonly SeededUser[], concurrency: number, tick: () => void): Promise<void> {
    await pool(users, concurrency, async (u) => { await addAccounts(u); tick(); });
  }

  return { call, post, accept, acceptOk, confirm, complete, rate, cancel, withAccounts };
}

export type Traders = ReturnType<typeof traders>;

/** A request inside the free plan's limits at the given market rate. */
export function smallRequest(rate: number, i: number) {
  return i % 2 === 0
    ? { fromCurrency: 'GBP' as const, toCurrency: 'CLP' as const, amount: 50 + (i % 100), exchangeRate: rate }
    : { fromCurrency: 'CLP' as const, toCurrency: 'GBP' as const, amount: 60_000 + 100 * (i % 100), exchangeRate: rate };
}

/**
 * Writes to the market at whatever pace it is called: writers post requests and cancel them in turn (a post is
 * one of the free plan's two exchanges a day, so each writer posts twice), so the market stays the same size.
 */
export function marketWriter(t: Traders, writers: readonly SeededUser[], rate: number) {
  const open: { user: SeededUser; id: number }[] = [];
  let posts = 0;
  return async (): Promise<void> => {
    if (open.length > 0 && posts % 2 === 0) {
      const { user, id } = open.shift()!;
      await t.cancel(user, id);
      return;
    }
    const user = writers[Math.floor(posts / 2)];
    if (!user) throw new BenchFailure('the writers have used their day\'s exchanges', 'Seed more writers (run.ts) or lower BENCH_WRITES_PER_SECOND.');
    posts++;
    const posted = await t.post(user, smallRequest(rate, posts));
    open.push({ user, id: posted.id });
  };
}
