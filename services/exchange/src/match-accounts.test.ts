/**
 * The match accounts view's payer-name check: each party is told whose account the partner's money must come from,
 * with the accounts service's holder flags, and only the two parties see it. The accounts service and identity are
 * fake servers answering their declared internal routes (a service cannot start another's code); infra's end-to-end
 * tests run the real ones.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ErrorBody, ExchangeMatch, ExchangeRequest, MatchAccountsResponse, Routes, servicePath, type OwnedBankAccount, type User,
} from '@puente/contracts';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { ExchangeSettings, exchangeService } from './app.ts';
import { trader } from './testing/traders.ts';

const BEA = 1;
const ANA = 2;
const OUTSIDER = 3;
const account = (userId: number, id: number, currency: 'GBP' | 'CLP', accountHolder: string, holderMatchesName: boolean | null): OwnedBankAccount => ({
  userId, id, currency, bankName: currency === 'GBP' ? 'Monzo' : 'BancoEstado', accountNumber: currency === 'GBP' ? '31926819' : '987654321',
  accountHolder, rut: currency === 'CLP' ? '12345678-5' : null, accountType: currency === 'CLP' ? 'vista' : null,
  email: currency === 'CLP' ? 'x@example.cl' : null, sortCode: currency === 'GBP' ? '040004' : null, iban: null, holderMatchesName,
});
const user = (id: number, firstName: string, lastName: string): User => ({
  id, firstName, lastName, email: `u${id}@puente.test`, profileImageUrl: null, trustRating: null, ratingCount: 0,
  transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
  subscriptionTier: 'free', hasBothAccounts: true, createdAt: '2026-01-01T00:00:00.000Z',
});
// Ana pays her pesos from an account held by someone else: Bea is warned; Bea's accounts are in her name.
const beaGbp = account(BEA, 11, 'GBP', 'Bea Soto', true);
const beaClp = account(BEA, 12, 'CLP', 'BEA SOTO ROJAS', true);
const anaGbp = account(ANA, 21, 'GBP', 'Ana Rojas', true);
const anaClp = account(ANA, 22, 'CLP', 'Carla Díaz', false);

describeWithInfra(['postgres'], 'exchange: the match accounts view tells each party whose money to expect', () => {
  const db = useFreshDatabase('exchange_match_accounts');
  let svc: TestService;
  let others: Server;
  let accounts: OwnedBankAccount[] = [beaGbp, beaClp, anaGbp, anaClp];
  const calls: string[] = [];
  beforeAll(async () => {
    others = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://service');
      calls.push(url.pathname);
      const ids = url.searchParams.get('ids')?.split(',').map(Number) ?? [];
      const body = url.pathname === servicePath(Routes.accounts.matchAccounts) ? accounts
        : url.pathname === servicePath(Routes.identity.internalUsers) ? [user(BEA, 'Bea', 'Soto'), user(ANA, 'Ana', 'Rojas')].filter((u) => ids.includes(u.id))
          : undefined;
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? { message: 'Not found' }));
    });
    await new Promise<void>((resolve) => others.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(others.address() as AddressInfo).port}`;
    svc = await startTestService(exchangeService(ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url, {
      serviceUrls: { accounts: url, identity: url },
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await new Promise((resolve) => others?.close(resolve));
  });

  it('names the partner\'s paying account holder with its flag, for both parties; an outsider gets 404', async () => {
    const [bea, ana, outsider] = [await trader(svc, BEA, { firstName: 'Bea', lastName: 'Soto' }), await trader(svc, ANA, { firstName: 'Ana', lastName: 'Rojas' }), await trader(svc, OUTSIDER)];
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
      svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const posted = await call('POST', '/exchange-requests', bea.headers, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 });
    const request = ExchangeRequest.parse(posted.json());
    const match = ExchangeMatch.parse((await call('POST', '/exchange-matches', ana.headers, { exchangeRequestId: request.id })).json());
    expect((await call('PUT', `/exchange-matches/${match.id}/confirm`, bea.headers)).statusCode).toBe(200);
    const view = async (headers: Record<string, string>) => {
      const res = await call('GET', `/exchange-matches/${match.id}/accounts`, headers);
      expect(res.statusCode, res.body).toBe(200);
      return MatchAccountsResponse.parse(res.json());
    };
    const strip = ({ userId: _owner, ...a }: OwnedBankAccount) => a;

    // Bea (the requester) sends pounds to Ana's GBP account and receives pesos from Ana's CLP account: held by Carla.
    expect(await view(bea.headers)).toMatchObject({
      isRequestor: true, myAccount: strip(beaClp), partnerAccount: strip(anaGbp),
      expectedPayer: { accountHolder: 'Carla Díaz', holderMatchesName: false },
    });
    // Ana receives pounds from Bea's GBP account, in Bea's name.
    expect(await view(ana.headers)).toMatchObject({
      isRequestor: false, myAccount: strip(anaGbp), partnerAccount: strip(beaClp),
      expectedPayer: { accountHolder: 'Bea Soto', holderMatchesName: true },
    });

    const asked = calls.length;
    const refused = await call('GET', `/exchange-matches/${match.id}/accounts`, outsider.headers);
    expect(refused.statusCode).toBe(404);
    expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Exchange match not found', code: 'not_found' });
    expect(calls.length).toBe(asked); // no bank detail was even read for the outsider

    // After completion Ana may delete her CLP account: the view still opens, with no payer to name.
    expect((await call('PUT', `/exchange-matches/${match.id}/complete`, ana.headers)).statusCode).toBe(200);
    accounts = [beaGbp, beaClp, anaGbp];
    expect((await view(bea.headers)).expectedPayer).toBeNull();
  });
});
