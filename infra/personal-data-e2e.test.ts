/**
 * A user's data (download and account deletion) end to end, through the gateway and every service as `npm start` runs them: Ana trades with
 * Bob, cannot delete her account while their match is pending, completes the exchange and rates him, downloads her
 * data (every service's section, read through the contract's schema), and deletes her account. Then her session and
 * her password no longer work, her bank accounts are gone, and Bob still has the exchange and the ratings, with Ana
 * shown as a deleted user. What crosses services on the bus is waited for, never assumed.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  AccountDeletionMessages as Says, CurrentUser, DeletedUser, ErrorBody, ExchangeMatch, ExchangeRequest, LoginAttemptList, Message,
  NotificationList, PersonalDataExport, Rating, RatingList, ReauthenticationMessages, TransactionHistory, UserDirectory, type BankAccount,
} from '@puente/contracts';
import { appClient, type AppClient, type SignedIn } from '@puente/testkit';
import { startEmbeddedApp, type RunningTestApp } from './testing/running-app.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders, viaBus } from './testing/traders.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'DATA-CODE' };

let app: RunningTestApp;
let client: AppClient;
let ana: SignedIn;
let bob: SignedIn;
let admin: string;
let anaAccounts: BankAccount[];
let request: ExchangeRequest;
let match: ExchangeMatch;
let ratings: { byAna: Rating; byBob: Rating };

beforeAll(async () => {
  app = await startEmbeddedApp('personal-data-e2e', {
    ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
    BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  });
  client = appClient(app.url);
  ana = await client.signUp(traders.ana, ADMIN.code);
  bob = await client.signUp(traders.bob, ADMIN.code);
  admin = (await client.login(ADMIN.email, ADMIN.password)).cookie!;
  const added = await addBankAccounts(client, ana, bankAccountsOf.ana);
  // Both in Ana's name: the flag says so once identity's registration has reached the accounts service.
  anaAccounts = added.map((a) => ({ ...a, holderMatchesName: true }));
  await vi.waitFor(async () => {
    expect(await client.json('/api/bank-accounts', 200, { cookie: ana.cookie })).toEqual(anaAccounts);
  }, viaBus);
  await addBankAccounts(client, bob, bankAccountsOf.bob);
}, 120_000);
afterAll(async () => { await app?.stop(); }, 60_000);

const deleteAccount = (user: SignedIn, password: string) => client.call('/api/users/me/delete', { cookie: user.cookie, body: { currentPassword: password } });
const refusal = async (res: Response) => [res.status, ErrorBody.parse(await res.json()).message];

it('refuses to delete Ana\'s account while her match with Bob is pending; she completes the exchange and both rate', async () => {
  request = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 120, exchangeRate: 1275 }));
  match = ExchangeMatch.parse(await onceAccountsKnown(client, '/api/exchange-matches', bob, { exchangeRequestId: request.id }));
  expect(await refusal(await deleteAccount(ana, traders.ana.password))).toEqual([409, Says.tradeInProgress]);
  expect(await refusal(await deleteAccount(ana, 'not her password'))).toEqual([401, ReauthenticationMessages.passwordWrong]);

  await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
  expect(await refusal(await deleteAccount(ana, traders.ana.password))).toEqual([409, Says.tradeInProgress]);
  await client.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bob.cookie });
  // The rating service hears of the completion over the bus.
  const rate = (from: SignedIn, to: SignedIn, comment: string) => vi.waitFor(async () => Rating.parse(await client.json('/api/ratings', 201, {
    cookie: from.cookie, body: { exchangeMatchId: match.id, toUserId: to.id, rating: 5, comment },
  })), viaBus);
  ratings = { byAna: await rate(ana, bob, 'Bob paid at once'), byBob: await rate(bob, ana, 'Ana was quick') };
}, 60_000);

it('downloads everything Puente holds about Ana as one JSON file, a section per service', async () => {
  // What reaches the notification service over the bus is in before the download is taken.
  const notifications = await vi.waitFor(async () => {
    const list = NotificationList.parse(await client.json('/api/notifications', 200, { cookie: ana.cookie }));
    expect(list.map((n) => n.type)).toContain('rating');
    return list;
  }, viaBus);
  const res = await client.call('/api/users/me/data', { cookie: ana.cookie });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="puente-data-[\d-]+\.json"$/);
  const data = PersonalDataExport.parse(await res.json());
  const me = CurrentUser.parse(await client.json('/api/auth/user', 200, { cookie: ana.cookie }));
  expect(data.userId).toBe(ana.id);
  expect(data.identity).toMatchObject({ profile: me, googleAccountLinked: false, verificationRequests: [], referrals: [] });
  expect(data.accounts.bankAccounts.sort((a, b) => a.id - b.id)).toEqual(anaAccounts.sort((a, b) => a.id - b.id));
  const { user: _poster, ...posted } = request;
  expect(data.exchange.requests).toEqual([{ ...posted, status: 'completed' }]);
  expect(data.exchange.matches.map((m) => [m.id, m.status, m.matchedById])).toEqual([[match.id, 'completed', bob.id]]);
  expect(data.exchange.history).toEqual([expect.objectContaining({ exchangeMatchId: match.id, fromAmount: 120, toAmount: 153_000, userRole: 'requester' })]);
  expect(data.rating).toEqual({ given: [ratings.byAna], received: [ratings.byBob] });
  expect(data.notification).toEqual({ notifications, preferences: { emailDigest: true } });
  expect(data.subscription).toMatchObject({ tier: 'free', status: 'none', paymentCustomerId: null });
  expect(data.audit.signupAttempts.map((a) => [a.step, a.status])).toEqual([['verify', 'completed'], ['request', 'pending']]);
  expect(data.audit.loginAttempts.map((a) => [a.email, a.status])).toEqual([[traders.ana.email, 'success']]);
  // Only hers: nothing of Bob's bank details or email.
  const text = JSON.stringify(data);
  for (const secret of [traders.bob.email, ...bankAccountsOf.bob.map((a) => a.accountNumber)]) expect(text).not.toContain(secret);
});

it('deletes Ana\'s account: her session and password stop working, her bank accounts are gone, her personal data erased', async () => {
  const res = await deleteAccount(ana, traders.ana.password);
  expect(res.status).toBe(200);
  expect(Message.parse(await res.json())).toEqual({ message: Says.deleted });
  expect((await client.call('/api/auth/user', { cookie: ana.cookie })).status).toBe(401);
  expect((await client.login(traders.ana.email, traders.ana.password)).res.status).toBe(401);

  // Bob's view of their completed match's bank details: hers no longer exist.
  await vi.waitFor(async () => {
    expect(await refusal(await client.call(`/api/exchange-matches/${match.id}/accounts`, { cookie: bob.cookie })))
      .toEqual([409, 'A bank account of this exchange no longer exists.']);
  }, viaBus);
  // Nobody finds her: not in the directory, not in the admin's login attempts under her email.
  expect(UserDirectory.parse(await client.json('/api/admin/users', 200, { cookie: bob.cookie })).map((u) => u.id)).not.toContain(ana.id);
  await vi.waitFor(async () => {
    expect(LoginAttemptList.parse(await client.json(`/api/admin/login-attempts?email=${encodeURIComponent(traders.ana.email)}`, 200, { cookie: admin })))
      .toEqual([expect.objectContaining({ status: 'failed', failureReason: 'invalid_credentials' })]); // only the login tried after the deletion
  }, viaBus);
});

it('keeps the exchange in Bob\'s history and both ratings, with Ana shown as a deleted user', async () => {
  const gone = { firstName: DeletedUser.firstName, lastName: DeletedUser.lastName };
  const history = TransactionHistory.parse(await client.json('/api/transaction-history', 200, { cookie: bob.cookie }));
  expect(history).toEqual([expect.objectContaining({
    exchangeMatchId: match.id, status: 'completed', userRole: 'matcher', otherUser: { ...gone, email: DeletedUser.email(ana.id) },
  })]);
  await vi.waitFor(async () => {
    expect(RatingList.parse(await client.json(`/api/ratings/user/${bob.id}`, 200, { cookie: bob.cookie })))
      .toEqual([{ ...ratings.byAna, comment: null, fromUser: { firstName: DeletedUser.firstName } }]);
  }, viaBus);
  expect(RatingList.parse(await client.json(`/api/ratings/user/${ana.id}`, 200, { cookie: bob.cookie }))).toEqual([ratings.byBob]);
  await vi.waitFor(async () => {
    const card = ExchangeRequest.parse(await client.json(`/api/exchange-requests/${request.id}`, 200, { cookie: bob.cookie }));
    expect([card.status, card.user.firstName, card.user.lastName]).toEqual(['completed', gone.firstName, gone.lastName]);
  }, viaBus);
});
