/**
 * The match accounts view: each party sees the accounts service's copy of both parties' accounts taken at approval
 * (with the payer-name check), only while the trade may need it: from approval until 30 days after completion, never
 * once called off, not while either party blocks the other. The history and the match stay. The accounts service and
 * identity are fake servers answering their declared internal routes (a service cannot start another's code);
 * the accounts service's own tests hold its copy to its rules, and infra's end-to-end tests run the real ones.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BankDetailsMessages, BankDetailsRefusal, CHAT_OPEN_DAYS_AFTER_COMPLETION, Dispute, ErrorBody, ExchangeMatch, ExchangeMatchList,
  ExchangeRequest, MatchAccountsQuery, MatchAccountsResponse, Routes, TransactionHistory, servicePath,
  type BankAccount, type MatchAccountsSnapshot, type User,
} from '@puente/contracts';
import type { TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { SWEEP_TRADE_TIMERS } from './jobs/sweep-trade-timers.ts';
import { refusal, startExchangeOnClock, trader } from './testing/traders.ts';

const DAY_MS = 86_400_000;
const account = (id: number, currency: 'GBP' | 'CLP', accountHolder: string, holderMatchesName: boolean | null): BankAccount => ({
  id, currency, bankName: currency === 'GBP' ? 'Monzo' : 'BancoEstado', accountNumber: currency === 'GBP' ? '31926819' : '987654321',
  accountHolder, rut: currency === 'CLP' ? '12345678-5' : null, accountType: currency === 'CLP' ? 'vista' : null,
  email: currency === 'CLP' ? 'x@example.cl' : null, sortCode: currency === 'GBP' ? '040004' : null, iban: null, holderMatchesName,
});
const user = (id: number): User => ({
  id, firstName: `User${id}`, lastName: 'Tester', email: `u${id}@puente.test`, profileImageUrl: null, trustRating: 4.5, ratingCount: 2,
  transactionCount: 3, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
  subscriptionTier: 'free', hasBothAccounts: true, createdAt: '2026-01-01T00:00:00.000Z',
});
const NOT_APPROVED = { message: 'Bank details are shared once the requester has approved the match', code: 'forbidden' };
const BLOCKED = { message: BankDetailsMessages.blocked, code: BankDetailsRefusal.blocked };
const EXPIRED = { message: BankDetailsMessages.expired, code: BankDetailsRefusal.expired };
const CALLED_OFF = { message: BankDetailsMessages.calledOff, code: BankDetailsRefusal.calledOff };

describeWithInfra(['postgres'], 'exchange: the bank details of a match, while the trade needs them', () => {
  const db = useFreshDatabase('exchange_match_accounts');
  let svc: TestService;
  let others: Server;
  let clock = new Date('2026-03-10T12:00:00.000Z');
  /** The accounts service's copies by match id (null: it has none to give). */
  const copies = new Map<number, MatchAccountsSnapshot>();
  /** The queries the exchange service sent to the accounts service's match-accounts route. */
  const asked: MatchAccountsQuery[] = [];
  beforeAll(async () => {
    others = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://service');
      const query = Object.fromEntries(url.searchParams);
      let body: unknown;
      if (url.pathname === servicePath(Routes.accounts.matchAccounts)) {
        const q = MatchAccountsQuery.parse(query);
        asked.push(q);
        body = copies.has(q.matchId) ? copies.get(q.matchId) : null;
      } else if (url.pathname === servicePath(Routes.identity.internalUsers)) {
        body = (query.ids ?? '').split(',').map((id) => user(Number(id)));
      }
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body === undefined ? { message: 'Not found' } : body));
    });
    await new Promise<void>((resolve) => others.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(others.address() as AddressInfo).port}`;
    svc = await startExchangeOnClock(db.url, () => clock, {}, { serviceUrls: { accounts: url, identity: url } });
    await svc.ctx.jobs.unschedule(SWEEP_TRADE_TIMERS); // no timer runs behind these tests' backs
  });
  afterAll(async () => {
    await svc?.stop();
    await new Promise((resolve) => others?.close(resolve));
  });

  type Headers = Record<string, string>;
  let nextUser = 1;
  const newTrader = () => trader(svc, nextUser++);
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const act = async (headers: Headers, matchId: number, action: 'confirm' | 'complete' | 'cancel') => {
    const res = await call('PUT', `/exchange-matches/${matchId}/${action}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return ExchangeMatch.parse(res.json());
  };
  const details = (headers: Headers, matchId: number) => call('GET', `/exchange-matches/${matchId}/accounts`, headers);
  const shown = async (headers: Headers, matchId: number) => {
    const res = await details(headers, matchId);
    expect(res.statusCode, res.body).toBe(200);
    return MatchAccountsResponse.parse(res.json());
  };
  /** Bea's £100 GBP → CLP request, accepted by Ana; approved unless told otherwise, with the copy the accounts service holds. */
  async function trade({ approve = true } = {}) {
    const [bea, ana] = [await newTrader(), await newTrader()];
    const posted = await call('POST', '/exchange-requests', bea.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 });
    const request = ExchangeRequest.parse(posted.json());
    const accepted = await call('POST', '/exchange-matches', ana.headers, { exchangeRequestId: request.id });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const match = ExchangeMatch.parse(accepted.json());
    // Bea receives pesos into her CLP account (and pays from her GBP one); Ana receives pounds, and pays from an account held by Carla.
    const copy = {
      matchId: match.id, takenAt: clock.toISOString(),
      requester: { userId: bea.userId, payout: account(12, 'CLP', 'BEA SOTO ROJAS', true), payer: { accountHolder: 'Bea Soto', holderMatchesName: true } },
      matcher: { userId: ana.userId, payout: account(21, 'GBP', 'Ana Rojas', true), payer: { accountHolder: 'Carla Díaz', holderMatchesName: false } },
    };
    copies.set(match.id, copy);
    if (approve) await act(bea.headers, match.id, 'confirm');
    return { bea, ana, request, match, copy };
  }

  it("shows each party the copy: their own account, the partner's, and whose money to expect; an outsider gets 404", async () => {
    const { bea, ana, request, match, copy } = await trade();
    const outsider = await newTrader();
    expect(await shown(bea.headers, match.id)).toEqual({
      exchangeDetails: { id: request.id, amount: 100, exchangeRate: 1275, fromCurrency: 'GBP', toCurrency: 'CLP', status: 'confirmed' },
      myAccount: copy.requester.payout, partnerAccount: copy.matcher.payout,
      partnerDetails: { firstName: `User${ana.userId}`, lastName: 'Tester', profileImageUrl: null, verificationLevel: 'partial', transactionCount: 3, trustRating: 4.5 },
      isRequestor: true,
      expectedPayer: { accountHolder: 'Carla Díaz', holderMatchesName: false },
    });
    expect(await shown(ana.headers, match.id)).toMatchObject({
      isRequestor: false, myAccount: copy.matcher.payout, partnerAccount: copy.requester.payout,
      expectedPayer: { accountHolder: 'Bea Soto', holderMatchesName: true },
    });
    // The accounts service was asked for this match's copy, with its parties (requester first) and currencies.
    expect(asked.at(-1)).toEqual({ matchId: match.id, userIds: [bea.userId, ana.userId], fromCurrency: 'GBP', toCurrency: 'CLP' });

    const before = asked.length;
    expect(ErrorBody.parse(refusal(await details(outsider.headers, match.id), 404))).toEqual({ message: 'Exchange match not found', code: 'not_found' });
    expect(asked.length).toBe(before); // no bank detail was even read for the outsider
  });

  it('answers 409 account_gone when the accounts service has no copy to give (a party deleted their account)', async () => {
    const { bea, match } = await trade();
    copies.delete(match.id);
    expect(refusal(await details(bea.headers, match.id), 409)).toEqual({ message: 'A bank account of this exchange no longer exists.', code: 'account_gone' });
  });

  it(`shows them until ${CHAT_OPEN_DAYS_AFTER_COMPLETION} days after completion, then 403 for both parties; the history and the match stay`, async () => {
    const { bea, ana, match, copy } = await trade();
    await act(ana.headers, match.id, 'complete');
    const completedAt = clock.getTime();
    try {
      clock = new Date(completedAt + CHAT_OPEN_DAYS_AFTER_COMPLETION * DAY_MS - 1);
      expect((await shown(ana.headers, match.id)).partnerAccount).toEqual(copy.requester.payout);
      clock = new Date(completedAt + CHAT_OPEN_DAYS_AFTER_COMPLETION * DAY_MS);
      const before = asked.length;
      for (const party of [bea, ana]) expect(refusal(await details(party.headers, match.id), 403)).toEqual(EXPIRED);
      expect(asked.length).toBe(before);

      const history = await call('GET', '/transaction-history', bea.headers);
      expect(history.statusCode, history.body).toBe(200);
      expect(TransactionHistory.parse(history.json()).map((h) => [h.exchangeMatchId, h.status])).toEqual([[match.id, 'completed']]);
      const matches = await call('GET', '/exchange-matches', ana.headers);
      expect(ExchangeMatchList.parse(matches.json()).map((m) => [m.id, m.status])).toEqual([[match.id, 'completed']]);
    } finally {
      clock = new Date(completedAt);
    }
  });

  describe('a block between the parties', () => {
    it('stops them at once for both parties, whoever blocked; lifting the block shows them again', async () => {
      const { bea, ana, match } = await trade();
      await shown(ana.headers, match.id);
      for (const [blocker, blocked] of [[bea, ana], [ana, bea]] as const) {
        expect((await call('POST', '/blocked-users', blocker.headers, { userId: blocked.userId })).statusCode).toBe(201);
        const before = asked.length;
        for (const party of [bea, ana]) expect(refusal(await details(party.headers, match.id), 403)).toEqual(BLOCKED);
        expect(asked.length).toBe(before);
        expect((await call('DELETE', `/blocked-users/${blocked.userId}`, blocker.headers)).statusCode).toBe(204);
        await shown(bea.headers, match.id);
      }
    });

    it('stops them for a completed match too, while its history stays', async () => {
      const { bea, ana, match } = await trade();
      await act(bea.headers, match.id, 'complete');
      expect((await call('POST', '/blocked-users', ana.headers, { userId: bea.userId })).statusCode).toBe(201);
      expect(refusal(await details(bea.headers, match.id), 403)).toEqual(BLOCKED);
      const history = await call('GET', '/transaction-history', ana.headers);
      expect(TransactionHistory.parse(history.json()).map((h) => h.exchangeMatchId)).toEqual([match.id]);
    });
  });

  describe('a match called off', () => {
    it('never shows them: not before approval, and never once it is called off', async () => {
      const { bea, ana, match } = await trade({ approve: false });
      expect(refusal(await details(ana.headers, match.id), 403)).toEqual(NOT_APPROVED);
      await act(ana.headers, match.id, 'cancel');
      for (const party of [bea, ana]) expect(refusal(await details(party.headers, match.id), 403)).toEqual(CALLED_OFF);
    });

    it('never again once an admin resolving its dispute cancels a confirmed match', async () => {
      const { bea, ana, match } = await trade();
      await shown(bea.headers, match.id);
      const opened = await call('POST', `/exchange-matches/${match.id}/dispute`, bea.headers, { reason: 'no_payment', statement: 'Nothing arrived' });
      expect(opened.statusCode, opened.body).toBe(201);
      const admin = await svc.as({ kind: 'user', userId: 9_999, role: 'admin' });
      const resolved = await call('POST', `/admin/disputes/${Dispute.parse(opened.json()).id}/resolve`, admin, { outcome: 'cancelled', note: 'No payment shown' });
      expect(resolved.statusCode, resolved.body).toBe(200);
      const before = asked.length;
      for (const party of [bea, ana]) expect(refusal(await details(party.headers, match.id), 403)).toEqual(CALLED_OFF);
      expect(asked.length).toBe(before);
    });
  });
});
