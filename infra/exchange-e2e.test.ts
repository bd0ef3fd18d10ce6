/**
 * A whole exchange end to end (post → accept → approve → bank details → complete → history) between
 * real users, through the real gateway and every service. Run twice: as `npm start` runs the app (one process,
 * PGlite, in-process bus) and distributed (every service and the gateway its own process, on PostgreSQL, Kafka
 * and Redis). What crosses services on the bus (accounts → exchange, exchange → accounts and identity) is waited
 * for, never assumed. Then who may take a request, and a block, as the market's pollers see them (and the bank
 * details of the pair's past exchange: withheld while the block lasts).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BankAccount, BankAccountList, BankDetailsMessages, BankDetailsRefusal, CurrentUser, ErrorBody, ExchangeMatch, ExchangeMatchForRequest, ExchangeRate,
  ExchangeRequest, ExchangeRequestList, MatchAccountsResponse, PublicUser, Rating, RatingList, TransactionHistory,
  type BankAccountCreateInput,
} from '@puente/contracts';
import { appClient, describeWithInfra, type AppClient, type RunningApp, type SignedIn } from '@puente/testkit';
import { startDistributedApp, startEmbeddedApp, showOutputOnFailure } from './testing/running-app.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'EXCH-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};

const NEEDS_BOTH_ACCOUNTS = 'You need both GBP and CLP accounts to create an exchange request';
const NEEDS_BOTH_TO_ACCEPT = 'You need both GBP and CLP accounts to accept an exchange request';
const IN_EXCHANGE = 'This account is part of an exchange in progress';

describe('one whole exchange through the gateway (embedded)', () => {
  exchangeEndToEnd(() => startEmbeddedApp('exchange-e2e', appEnv));
});

describeWithInfra(['postgres', 'redis', 'kafka'], 'one whole exchange through the gateway (distributed)', () => {
  exchangeEndToEnd(() => startDistributedApp('exchange-e2e', appEnv));
});

function exchangeEndToEnd(start: () => Promise<RunningApp>): void {
  let app: RunningApp;
  let client: AppClient;
  beforeAll(async () => { app = await start(); client = appClient(app.url); }, 120_000);
  afterAll(async () => { await app?.stop(); }, 60_000);
  showOutputOnFailure(() => app);

  /**
   * For what reaches a service through the bus. On Kafka (distributed) a service notices another's topic only once
   * it exists and its consumer refreshes metadata (every 10 s) and rebalances: allow a minute on 2 busy cores.
   */
  const viaBus = { timeout: 60_000, interval: 200 };

  const call: AppClient['call'] = (path, init) => client.call(path, init);
  const json: AppClient['json'] = (path, status, init) => client.json(path, status, init);
  const errorOf = async (res: Response) => ErrorBody.parse(await res.json()).message;

  let ana: SignedIn;
  let bruno: SignedIn;
  let carla: SignedIn;
  const accounts: Record<'ana' | 'bruno', { GBP: BankAccount; CLP: BankAccount }> = {} as never;
  let posted: ExchangeRequest;
  let match: ExchangeMatch;

  const anaAccounts: BankAccountCreateInput[] = [
    { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Diaz', sortCode: '04-00-04' },
    { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Diaz', rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl' },
  ];
  const brunoAccounts: BankAccountCreateInput[] = [
    { currency: 'GBP', bankName: 'Barclays', accountNumber: '5577 9911', accountHolder: 'Bruno Silva', sortCode: '20 32 53' },
    { currency: 'CLP', bankName: 'Banco de Chile', accountNumber: '00-123-45678-09', accountHolder: 'Bruno Silva', rut: '9.876.543-3', accountType: 'current', email: 'bruno@example.cl' },
  ];

  /** Posts until the exchange service has heard of the poster's accounts (403 'You need both...' until then). */
  async function onceAccountsKnown(path: string, cookie: string, body: unknown): Promise<Response> {
    return vi.waitFor(async () => {
      const res = await call(path, { cookie, body });
      if (res.status === 403) {
        const message = await errorOf(res.clone());
        expect([NEEDS_BOTH_ACCOUNTS, NEEDS_BOTH_TO_ACCEPT]).toContain(message);
        throw new Error(`${path}: still 403 (${message})`);
      }
      return res;
    }, viaBus);
  }

  it('signs Ana, Bruno and Carla up and in; Ana and Bruno each add a GBP and a CLP bank account', async () => {
    ana = await client.signUp({ email: 'ana@puente.test', password: 'password1', firstName: 'Ana', lastName: 'Diaz' }, ADMIN.code);
    bruno = await client.signUp({ email: 'bruno@puente.test', password: 'password2', firstName: 'Bruno', lastName: 'Silva' }, ADMIN.code);
    carla = await client.signUp({ email: 'carla@puente.test', password: 'password3', firstName: 'Carla', lastName: 'Soto' }, ADMIN.code);
    expect(new Set([ana.id, bruno.id, carla.id]).size).toBe(3);

    for (const [who, user, inputs] of [['ana', ana, anaAccounts], ['bruno', bruno, brunoAccounts]] as const) {
      const [gbp, clp] = await Promise.all(inputs.map(async (body) => BankAccount.parse(await json('/api/bank-accounts', 201, { cookie: user.cookie, body }))));
      // Each holder is the owner's name: the flag says so once identity's registration has reached the accounts service.
      accounts[who] = { GBP: { ...gbp!, holderMatchesName: true }, CLP: { ...clp!, holderMatchesName: true } };
      await expect.poll(async () => BankAccountList.parse(await json('/api/bank-accounts', 200, { cookie: user.cookie })).sort((a, b) => a.id - b.id), viaBus)
        .toEqual([accounts[who].GBP, accounts[who].CLP].sort((a, b) => a.id - b.id));
    }
    // As stored: GBP account number and sort code without the spaces typed; a CLP number as the bank prints it.
    expect(accounts.bruno.GBP).toMatchObject({ accountNumber: '55779911', sortCode: '203253' });
    expect(accounts.bruno.CLP).toMatchObject({ accountNumber: '00-123-45678-09', rut: '9876543-3', accountType: 'current', email: 'bruno@example.cl' });
    expect(accounts.ana.CLP).toMatchObject({ rut: '12345678-5', accountType: 'vista', email: 'ana@example.cl' });
  }, 60_000); // three password hashes and logins on 2 busy cores

  it('lets Ana post £150.25 GBP→CLP at the market rate once the exchange service knows her accounts', async () => {
    const rate = ExchangeRate.parse(await json('/api/exchange-rate', 200));
    expect(rate.gbpToClp).toBe(1275);

    const res = await onceAccountsKnown('/api/exchange-requests', ana.cookie, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 150.25, exchangeRate: rate.gbpToClp });
    const body = await res.text();
    expect(res.status, body).toBe(201);
    posted = ExchangeRequest.parse(JSON.parse(body));
    const expected = {
      id: expect.any(Number), userId: ana.id, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 150.25, exchangeRate: 1275,
      status: 'open', createdAt: expect.any(String),
      user: {
        firstName: 'Ana', lastName: 'Diaz', profileImageUrl: null, trustRating: null, transactionCount: 0,
        completionRate: null, averageCompletionMinutes: null, memberSince: expect.any(String),
      },
    };
    // The poster card comes from identity's topic, which may lag the accounts' one: the request itself is exact now.
    expect(posted).toEqual({ ...expected, user: expect.any(Object) });
    await expect.poll(async () => ExchangeRequest.parse(await json(`/api/exchange-requests/${posted.id}`, 200, { cookie: bruno.cookie })), viaBus)
      .toEqual({ ...expected, id: posted.id, createdAt: posted.createdAt });
    posted = ExchangeRequest.parse(await json(`/api/exchange-requests/${posted.id}`, 200, { cookie: ana.cookie }));
  }, 150_000);

  it('shows it to Bruno on the market, and refuses Carla, who has no bank accounts, accepting it', async () => {
    const res = await call('/api/exchange-requests', { cookie: bruno.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(ExchangeRequestList.parse(await res.json())).toEqual([posted]);

    const carlaAccepts = await call('/api/exchange-matches', { cookie: carla.cookie, body: { exchangeRequestId: posted.id } });
    expect(carlaAccepts.status).toBe(403);
    expect(await errorOf(carlaAccepts)).toBe(NEEDS_BOTH_TO_ACCEPT);
    const anaAcceptsOwn = await call('/api/exchange-matches', { cookie: ana.cookie, body: { exchangeRequestId: posted.id } });
    expect(anaAcceptsOwn.status).toBe(403);
    expect(ExchangeRequest.parse(await json(`/api/exchange-requests/${posted.id}`, 200, { cookie: carla.cookie })).status).toBe('open');
  });

  it('lets Bruno accept: a pending match, and no bank details for anyone before Ana approves', async () => {
    const res = await onceAccountsKnown('/api/exchange-matches', bruno.cookie, { exchangeRequestId: posted.id });
    const body = await res.text();
    expect(res.status, body).toBe(201);
    match = ExchangeMatch.parse(JSON.parse(body));
    const { user: _poster, ...summary } = posted;
    const expected = {
      id: expect.any(Number), exchangeRequestId: posted.id, matchedById: bruno.id, matcherName: 'Bruno Silva', status: 'pending',
      createdAt: expect.any(String), exchangeRequest: { ...summary, status: 'matched' }, paidByIds: [], confirmedAt: null, payments: [], receipts: [], completedAt: null, completedById: null, receiptQuestion: null,
    };
    expect(match).toEqual({ ...expected, matcherName: expect.any(String) });
    // Ana sees it on her request (the matcher's name from identity's topic, which may lag).
    await expect.poll(async () => ExchangeMatchForRequest.parse(await json(`/api/exchange-matches/request/${posted.id}`, 200, { cookie: ana.cookie })), viaBus)
      .toEqual({ ...expected, id: match.id, createdAt: match.createdAt });
    expect(ExchangeMatchForRequest.parse(await json(`/api/exchange-matches/request/${posted.id}`, 200, { cookie: carla.cookie }))).toBeNull();
    expect(ExchangeRequest.parse(await json(`/api/exchange-requests/${posted.id}`, 200, { cookie: ana.cookie })).status).toBe('matched');

    for (const party of [ana, bruno]) {
      const refused = await call(`/api/exchange-matches/${match.id}/accounts`, { cookie: party.cookie });
      const text = await refused.text();
      expect({ who: party.firstName, status: refused.status }).toEqual({ who: party.firstName, status: 403 });
      expect(ErrorBody.parse(JSON.parse(text)).message).toMatch(/approved/);
      for (const account of [...Object.values(accounts.ana), ...Object.values(accounts.bruno)]) expect(text).not.toContain(account.accountNumber);
    }
    expect((await call(`/api/exchange-matches/${match.id}/accounts`, { cookie: carla.cookie })).status).toBe(404);
  }, 150_000);

  it('lets only Ana approve; then each party sees the other\'s account in the currency they pay, and Carla nothing', async () => {
    expect((await call(`/api/exchange-matches/${match.id}/confirm`, { method: 'PUT', cookie: bruno.cookie })).status).toBe(403);
    expect((await call(`/api/exchange-matches/${match.id}/confirm`, { method: 'PUT', cookie: carla.cookie })).status).toBe(404);
    const confirmed = ExchangeMatch.parse(await json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie }));
    expect(confirmed).toMatchObject({ id: match.id, status: 'confirmed', exchangeRequest: { id: posted.id, status: 'confirmed' } });

    const exchangeDetails = { id: posted.id, amount: 150.25, exchangeRate: 1275, fromCurrency: 'GBP', toCurrency: 'CLP', status: 'confirmed' };
    // Ana sends pounds and receives pesos: her CLP account, Bruno's GBP account (the number and sort code in full).
    const forAna = MatchAccountsResponse.parse(await json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: ana.cookie }));
    expect(forAna).toEqual({
      exchangeDetails,
      myAccount: accounts.ana.CLP,
      partnerAccount: accounts.bruno.GBP,
      partnerDetails: { firstName: 'Bruno', lastName: 'Silva', profileImageUrl: null, verificationLevel: 'partial', transactionCount: 0, trustRating: null },
      isRequestor: true,
      // Bruno pays her pesos from his CLP account, in his own name.
      expectedPayer: { accountHolder: 'Bruno Silva', holderMatchesName: true },
    });
    expect(forAna.partnerAccount).toMatchObject({ currency: 'GBP', bankName: 'Barclays', accountNumber: '55779911', sortCode: '203253', accountHolder: 'Bruno Silva' });
    // Bruno the mirror image: his GBP account receives, he pays into Ana's CLP account.
    const forBruno = MatchAccountsResponse.parse(await json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: bruno.cookie }));
    expect(forBruno).toEqual({
      exchangeDetails,
      myAccount: accounts.bruno.GBP,
      partnerAccount: accounts.ana.CLP,
      partnerDetails: { firstName: 'Ana', lastName: 'Diaz', profileImageUrl: null, verificationLevel: 'partial', transactionCount: 0, trustRating: null },
      isRequestor: false,
      expectedPayer: { accountHolder: 'Ana Diaz', holderMatchesName: true },
    });
    expect(forBruno.partnerAccount).toMatchObject({ currency: 'CLP', accountNumber: '987654321', rut: '12345678-5', accountType: 'vista', email: 'ana@example.cl' });
    expect((await call(`/api/exchange-matches/${match.id}/accounts`, { cookie: carla.cookie })).status).toBe(404);
  });

  it('keeps Ana\'s (and Bruno\'s) bank accounts from being edited or deleted while the exchange is in progress', async () => {
    // Both have seen the details: from that read on the accounts are locked, whatever the bus's delay.
    const unchanged = (a: BankAccount) => ({ bankName: a.bankName, accountNumber: a.accountNumber, accountHolder: a.accountHolder });
    for (const [user, account] of [[ana, accounts.ana.GBP], [bruno, accounts.bruno.CLP]] as const) {
      const res = await call(`/api/bank-accounts/${account.id}`, { method: 'PUT', cookie: user.cookie, body: unchanged(account) });
      expect(res.status).toBe(409);
      expect(await errorOf(res)).toBe(IN_EXCHANGE);
    }
    for (const account of Object.values(accounts.ana)) {
      const edit = await call(`/api/bank-accounts/${account.id}`, { method: 'PUT', cookie: ana.cookie, body: { ...unchanged(account), bankName: 'Elsewhere' } });
      expect(edit.status).toBe(409);
      expect(await errorOf(edit)).toBe(IN_EXCHANGE);
      const remove = await call(`/api/bank-accounts/${account.id}`, { method: 'DELETE', cookie: ana.cookie });
      expect(remove.status).toBe(409);
      expect(await errorOf(remove)).toBe(IN_EXCHANGE);
    }
    expect(BankAccountList.parse(await json('/api/bank-accounts', 200, { cookie: ana.cookie })).sort((a, b) => a.id - b.id))
      .toEqual([accounts.ana.GBP, accounts.ana.CLP].sort((a, b) => a.id - b.id));
  }, 150_000);

  it('lets Bruno complete it; each party\'s history shows it from their own side', async () => {
    expect((await call(`/api/exchange-matches/${match.id}/complete`, { method: 'PUT', cookie: carla.cookie })).status).toBe(404);
    const completed = ExchangeMatch.parse(await json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bruno.cookie }));
    expect(completed).toMatchObject({ id: match.id, status: 'completed', exchangeRequest: { id: posted.id, status: 'completed' } });
    expect((await call(`/api/exchange-matches/${match.id}/complete`, { method: 'PUT', cookie: ana.cookie })).status).toBe(409);

    const historyOf = async (user: SignedIn) => {
      const res = await call('/api/transaction-history', { cookie: user.cookie });
      expect(res.status).toBe(200);
      const items = TransactionHistory.parse(await res.json());
      expect(res.headers.get('x-total-count')).toBe(String(items.length));
      return items;
    };
    const common = { id: match.id, exchangeRequestId: posted.id, exchangeMatchId: match.id, exchangeRate: 1275, status: 'completed', completedAt: expect.any(String) };
    const anaHistory = await historyOf(ana);
    // 150.25 × 1275 = 191,568.75 → 191,569 pesos (half-up to whole pesos).
    expect(anaHistory).toEqual([{
      ...common, fromCurrency: 'GBP', fromAmount: 150.25, toCurrency: 'CLP', toAmount: 191569, userRole: 'requester',
      otherUser: { firstName: 'Bruno', lastName: 'Silva', email: 'bruno@puente.test' },
    }]);
    const brunoHistory = await historyOf(bruno);
    expect(brunoHistory).toEqual([{
      ...common, fromCurrency: 'CLP', fromAmount: 191569, toCurrency: 'GBP', toAmount: 150.25, userRole: 'matcher',
      otherUser: { firstName: 'Ana', lastName: 'Diaz', email: 'ana@puente.test' },
    }]);
    expect(brunoHistory[0]!.completedAt).toBe(anaHistory[0]!.completedAt);
    expect(await historyOf(carla)).toEqual([]);

    // A completed match still shows its parties where to look back at; it has left the market.
    const after = MatchAccountsResponse.parse(await json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: ana.cookie }));
    expect(after.exchangeDetails.status).toBe('completed');
    expect(after.partnerAccount).toEqual(accounts.bruno.GBP);
    const market = await call('/api/exchange-requests', { cookie: carla.cookie });
    expect(market.headers.get('x-total-count')).toBe('0');
    expect(ExchangeRequestList.parse(await market.json())).toEqual([]);
  });

  it('unlocks Ana\'s bank accounts once completed, and counts one transaction for each party', async () => {
    const edit = { bankName: 'Monzo Bank', accountNumber: '31926819', accountHolder: 'Ana M. Diaz' };
    const edited = await vi.waitFor(async () => {
      const res = await call(`/api/bank-accounts/${accounts.ana.GBP.id}`, { method: 'PUT', cookie: ana.cookie, body: edit });
      expect(res.status).toBe(200);
      return BankAccount.parse(await res.json());
    }, viaBus);
    expect(edited).toEqual({ ...accounts.ana.GBP, ...edit });
    // Bruno sends his pesos to her CLP account: she changes it now, and he still sees it as it was when she approved.
    const clpEdit = { bankName: 'Banco de Chile', accountNumber: '111222333', accountHolder: 'Ana M. Diaz' };
    expect(BankAccount.parse(await json(`/api/bank-accounts/${accounts.ana.CLP.id}`, 200, { method: 'PUT', cookie: ana.cookie, body: clpEdit })))
      .toEqual({ ...accounts.ana.CLP, ...clpEdit });
    const forBruno = MatchAccountsResponse.parse(await json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: bruno.cookie }));
    expect([forBruno.partnerAccount, forBruno.expectedPayer]).toEqual([accounts.ana.CLP, { accountHolder: 'Ana Diaz', holderMatchesName: true }]);

    for (const user of [ana, bruno]) {
      await expect.poll(async () => CurrentUser.parse(await json('/api/auth/user', 200, { cookie: user.cookie })).transactionCount, viaBus).toBe(1);
    }
    expect(CurrentUser.parse(await json('/api/auth/user', 200, { cookie: carla.cookie })).transactionCount).toBe(0);
  }, 150_000);

  it('lets each party rate the other once; the ratings are public and move each one\'s trust', async () => {
    // The rating service learns that the match completed through the bus.
    const byBruno = await vi.waitFor(async () => {
      const res = await call('/api/ratings', { cookie: bruno.cookie, body: { exchangeMatchId: match.id, toUserId: ana.id, rating: 5, comment: '  Quick and friendly  ' } });
      expect(res.status).toBe(201);
      return Rating.parse(await res.json());
    }, viaBus);
    expect(byBruno).toEqual({
      id: expect.any(Number), exchangeMatchId: match.id, fromUserId: bruno.id, toUserId: ana.id, rating: 5,
      comment: 'Quick and friendly', createdAt: expect.any(String), fromUser: { firstName: 'Bruno' },
    });
    const again = await call('/api/ratings', { cookie: bruno.cookie, body: { exchangeMatchId: match.id, toUserId: ana.id, rating: 1 } });
    expect([again.status, await errorOf(again)]).toEqual([409, 'Already Rated']);
    expect((await call('/api/ratings', { cookie: carla.cookie, body: { exchangeMatchId: match.id, toUserId: ana.id, rating: 1 } })).status).toBe(404);
    const byAna = Rating.parse(await json('/api/ratings', 201, { cookie: ana.cookie, body: { exchangeMatchId: match.id, toUserId: bruno.id, rating: 4 } }));

    expect(RatingList.parse(await json(`/api/ratings/exchange/${match.id}`, 200, { cookie: ana.cookie })).map((r) => r.id).sort())
      .toEqual([byBruno.id, byAna.id].sort());
    expect((await call(`/api/ratings/exchange/${match.id}`, { cookie: carla.cookie })).status).toBe(404);
    // Public to any signed-in user: trust is built on them.
    expect(RatingList.parse(await json(`/api/ratings/user/${ana.id}`, 200, { cookie: carla.cookie }))).toEqual([byBruno]);

    // Identity follows: Ana 5.0 (40 points) + 1 exchange (2) + email verified (5) = 47, Silver; Bruno 4.0 (32 + 7) = 39, Bronze.
    for (const [user, trust] of [[ana, { trustRating: 5, ratingCount: 1, trustScore: 47, trustLevel: 'Silver' }], [bruno, { trustRating: 4, ratingCount: 1, trustScore: 39, trustLevel: 'Bronze' }]] as const) {
      await expect.poll(async () => {
        const me = CurrentUser.parse(await json('/api/auth/user', 200, { cookie: user.cookie }));
        return { trustRating: me.trustRating, ratingCount: me.ratingCount, trustScore: me.trustScore, trustLevel: me.trustLevel };
      }, viaBus).toEqual(trust);
    }
  }, 150_000);

  it('shows each party\'s trade record on the public profile and on the request card: one confirmed, one completed, in minutes', async () => {
    // Confirmed and completed within these tests' seconds: 100 % and 0 minutes, for both parties.
    const record = { completionRate: 100, averageCompletionMinutes: 0 };
    for (const user of [ana, bruno]) {
      await expect.poll(async () => {
        const { completionRate, averageCompletionMinutes } = PublicUser.parse(await json(`/api/users/${user.id}`, 200, { cookie: carla.cookie }));
        return { completionRate, averageCompletionMinutes };
      }, viaBus).toEqual(record);
    }
    expect(PublicUser.parse(await json(`/api/users/${carla.id}`, 200, { cookie: ana.cookie }))).toMatchObject({ completionRate: null, averageCompletionMinutes: null });
    // The exchange service learns Ana's new trust from the rating's event: her card shows it once that has arrived.
    const { trustRating } = PublicUser.parse(await json(`/api/users/${ana.id}`, 200, { cookie: carla.cookie }));
    await expect.poll(async () => ExchangeRequest.parse(await json(`/api/exchange-requests/${posted.id}`, 200, { cookie: ana.cookie })).user.trustRating, viaBus)
      .toBe(trustRating);

    const again = ExchangeRequest.parse(await json('/api/exchange-requests', 201, {
      cookie: ana.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 20, exchangeRate: 1275 },
    }));
    expect(again.user).toMatchObject({ transactionCount: 1, ...record });
    // Member since she registered: identity's createdAt, or its registration event a moment later.
    const { createdAt } = PublicUser.parse(await json(`/api/users/${ana.id}`, 200, { cookie: carla.cookie }));
    const sinceJoined = Date.parse(again.user.memberSince!) - Date.parse(createdAt);
    expect(sinceJoined).toBeGreaterThanOrEqual(0);
    expect(sinceJoined).toBeLessThan(60_000);
    expect(ExchangeRequestList.parse(await json('/api/exchange-requests', 200, { cookie: carla.cookie })).find((r) => r.id === again.id)?.user).toEqual(again.user);
  });

  it('refuses Ana a Platinum-only request of Bruno\'s; once he blocks her, his requests leave her market (not Carla\'s) and her accept is not found', async () => {
    // Bruno posts: Ana has used her free plan's two exchanges of the day.
    const strict = ExchangeRequest.parse(await json('/api/exchange-requests', 201, {
      cookie: bruno.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 25, exchangeRate: 1275, minTrustLevel: 'Platinum', verifiedOnly: false },
    }));
    expect(strict).toMatchObject({ minTrustLevel: 'Platinum' });
    expect(strict).not.toHaveProperty('verifiedOnly');
    const refused = await call('/api/exchange-matches', { cookie: ana.cookie, body: { exchangeRequestId: strict.id } });
    expect(refused.status).toBe(403);
    expect(ErrorBody.parse(await refused.json())).toMatchObject({ code: 'trust_level_too_low' });

    /** The market as a user polls it through the gateway, revalidating with the ETag they hold. */
    const poll = async (who: SignedIn, etag?: string) => {
      const res = await call('/api/exchange-requests?limit=500', { cookie: who.cookie, ...(etag ? { headers: { 'if-none-match': etag } } : {}) });
      return { status: res.status, etag: res.headers.get('etag') ?? '', ids: res.status === 200 ? ExchangeRequestList.parse(await res.json()).map((r) => r.id) : [] };
    };
    const anaBefore = await poll(ana);
    const carlaBefore = await poll(carla);
    expect(anaBefore.ids).toContain(strict.id);
    expect((await poll(ana, anaBefore.etag)).status).toBe(304);

    await json('/api/blocked-users', 201, { cookie: bruno.cookie, body: { userId: ana.id } });
    // Their completed exchange's bank details stop at once, for both; its history and ratings stay.
    for (const user of [ana, bruno]) {
      const res = await call(`/api/exchange-matches/${match.id}/accounts`, { cookie: user.cookie });
      expect([res.status, ErrorBody.parse(await res.json())]).toEqual([403, { message: BankDetailsMessages.blocked, code: BankDetailsRefusal.blocked }]);
      expect(TransactionHistory.parse(await json('/api/transaction-history', 200, { cookie: user.cookie })).map((h) => h.exchangeMatchId)).toEqual([match.id]);
      expect(RatingList.parse(await json(`/api/ratings/exchange/${match.id}`, 200, { cookie: user.cookie }))).toHaveLength(2);
    }
    const anaAfter = await poll(ana, anaBefore.etag);
    expect(anaAfter.status).toBe(200);
    expect(anaAfter.ids).not.toContain(strict.id);
    expect((await poll(ana, anaAfter.etag)).status).toBe(304);
    expect((await poll(carla)).ids).toEqual(expect.arrayContaining(carlaBefore.ids));
    const hidden = await call('/api/exchange-matches', { cookie: ana.cookie, body: { exchangeRequestId: strict.id } });
    expect([hidden.status, await errorOf(hidden)]).toEqual([404, 'Exchange request not found']);

    expect((await call(`/api/blocked-users/${ana.id}`, { method: 'DELETE', cookie: bruno.cookie })).status).toBe(204);
    expect((await poll(ana, anaAfter.etag)).ids).toContain(strict.id);
    // Lifted within 30 days of completion: the details (as at approval) are shown again.
    expect(MatchAccountsResponse.parse(await json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: ana.cookie })).partnerAccount)
      .toEqual(accounts.bruno.GBP);
  });
}
