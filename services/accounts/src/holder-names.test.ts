/**
 * The payer-name check on the accounts service: each account says whether its holder is its owner's profile name,
 * learnt from identity's events (and its snapshot at a first start), never from identity's database.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BankAccount, BankAccountList, MatchAccountsSnapshot, Routes, servicePath, type EventEnvelope } from '@puente/contracts';
import { ProjectionBackfill, makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AccountsSettings, accountsService } from './app.ts';
import { ProfileName } from './domain/profile-name.ts';

const settings = (backfill: 'on' | 'off') => AccountsSettings.parse({
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, PROJECTION_BACKFILL: backfill,
});
const gbp = (accountHolder: string) => ({ currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder, sortCode: '04-00-04' });
const clp = (accountHolder: string) => ({
  currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder, rut: '12.345.678-5', accountType: 'vista', email: 'jose@example.cl',
});
const at = (event: EventEnvelope, ms: number): EventEnvelope => ({ ...event, occurredAt: new Date(ms).toISOString() });
const registered = (userId: number, firstName: string, lastName: string) =>
  makeEvent('userRegistered', userId, { userId, firstName, lastName, role: 'user', referrerId: null });
const renamed = (userId: number, firstName: string, lastName: string) =>
  makeEvent('userProfileUpdated', userId, { userId, firstName, lastName, profileImageUrl: null });

describeWithInfra(['postgres'], 'accounts: does the holder match the profile name', () => {
  const db = useFreshDatabase('accounts_holder_names');
  let svc: TestService;
  let nextUser = 100;
  beforeAll(async () => { svc = await startTestService(accountsService(settings('off')), db.url); });
  afterAll(async () => { await svc?.stop(); });

  const newUser = () => { nextUser += 1; return nextUser; };
  async function call(userId: number, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    const headers = await svc.as({ kind: 'user', userId, role: 'user' });
    return svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  }
  const add = async (userId: number, payload: object) => {
    const res = await call(userId, 'POST', '/bank-accounts', payload);
    expect(res.statusCode, res.body).toBe(201);
    return BankAccount.parse(res.json());
  };
  const flags = async (userId: number) => {
    const res = await call(userId, 'GET', '/bank-accounts');
    expect(res.statusCode).toBe(200);
    return BankAccountList.parse(res.json()).map((a) => [a.accountHolder, a.holderMatchesName]);
  };

  it('flags an account whose holder is not the profile name: in the list and the answers to POST and PUT', async () => {
    const jose = newUser();
    await svc.deliver(registered(jose, 'José', 'Pérez'));
    // Chilean banks print both surnames, in capitals and without accents: still José Pérez.
    expect((await add(jose, gbp('JOSE PEREZ GONZALEZ'))).holderMatchesName).toBe(true);
    const other = await add(jose, clp('Pedro Silva'));
    expect(other.holderMatchesName).toBe(false);
    expect(await flags(jose)).toEqual([['JOSE PEREZ GONZALEZ', true], ['Pedro Silva', false]]);

    const fixed = await call(jose, 'PUT', `/bank-accounts/${other.id}`, { bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'José Pérez' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(BankAccount.parse(fixed.json()).holderMatchesName).toBe(true);
  });

  it('follows the profile name: a newer name changes the flags, an older one arriving late does not', async () => {
    const ana = newUser();
    await add(ana, gbp('Ana Silva'));
    // No name known yet (identity's event not in): nothing is flagged on a guess.
    expect(await flags(ana)).toEqual([['Ana Silva', null]]);
    const now = Date.now();
    await svc.deliver(at(registered(ana, 'Ana', 'Silva'), now));
    expect(await flags(ana)).toEqual([['Ana Silva', true]]);
    await svc.deliver(at(renamed(ana, 'Pedro', 'Silva'), now + 1_000));
    expect(await flags(ana)).toEqual([['Ana Silva', false]]);
    await svc.deliver(at(renamed(ana, 'Ana', 'Silva'), now - 60_000));
    expect(await flags(ana)).toEqual([['Ana Silva', false]]);
  });

  it("gives the exchange service each party's flags with the match's copy of their accounts", async () => {
    const [requester, matcher] = [newUser(), newUser()];
    await svc.deliver(registered(requester, 'Bea', 'Soto'), registered(matcher, 'Ana', 'Rojas'));
    await add(requester, gbp('BEA SOTO ROJAS'));
    await add(matcher, clp('Carla Díaz'));
    await add(matcher, gbp('Ana Rojas'));
    // Bea sends pesos and receives pounds; Ana receives the pesos into an account held by Carla and pays from her own.
    const res = await svc.app.inject({
      method: 'GET', url: `/internal/match-accounts?matchId=77&userIds=${requester},${matcher}&fromCurrency=CLP&toCurrency=GBP`,
      headers: await svc.as({ kind: 'service', service: 'exchange' }),
    });
    expect(res.statusCode).toBe(200);
    const copy = MatchAccountsSnapshot.parse(res.json());
    expect([copy?.requester.payout.holderMatchesName, copy?.requester.payer]).toEqual([true, null]);
    expect([copy?.matcher.payout.holderMatchesName, copy?.matcher.payer]).toEqual([false, { accountHolder: 'Ana Rojas', holderMatchesName: true }]);
  });

  it('keeps holder names out of its events, and blanks the name of a user who deleted their account', async () => {
    const zoe = newUser();
    const now = Date.now();
    await svc.deliver(at(registered(zoe, 'Zoe', 'Quintana'), now));
    await add(zoe, gbp('Zoe Quintana'));
    await svc.ctx.relay.flush();
    await svc.bus.drain();
    expect(JSON.stringify(svc.published())).not.toContain('Quintana');

    await svc.deliver(at(makeEvent('userDeleted', zoe, { userId: zoe }), now + 1_000), at(renamed(zoe, 'Zoe', 'Quintana'), now + 500));
    expect(await svc.ctx.orm.em.fork().findOneOrFail(ProfileName, { userId: zoe })).toMatchObject({ firstName: '', lastName: '' });
    expect(await flags(zoe)).toEqual([]);
  });
});

describeWithInfra(['postgres'], "accounts: profile names from identity's snapshot", () => {
  const db = useFreshDatabase('accounts_profile_backfill');
  let identity: Server;
  let calls = 0;
  const user = (id: number, firstName: string, lastName: string) => ({
    id, firstName, lastName, email: `u${id}@puente.test`, profileImageUrl: null, trustRating: null, ratingCount: 0,
    transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
    subscriptionTier: 'free', hasBothAccounts: false, createdAt: '2026-01-01T00:00:00.000Z',
  });
  const users = [user(1, 'Ana', 'Rojas'), user(2, 'Bruno', 'Silva')];
  beforeAll(async () => {
    // A fake identity answering its internal users route: a snapshot page after `afterId`.
    identity = createServer((req, res) => {
      calls += 1;
      const url = new URL(req.url ?? '/', 'http://identity');
      const afterId = Number(url.searchParams.get('afterId') ?? 0);
      res.writeHead(url.pathname === servicePath(Routes.identity.internalUsers) ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(users.filter((u) => u.id > afterId)));
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => { await new Promise((resolve) => identity.close(resolve)); });

  it('fills the names of users who registered before it kept them, once', async () => {
    const serviceUrls = { identity: `http://127.0.0.1:${(identity.address() as AddressInfo).port}` };
    const svc = await startTestService(accountsService(settings('on')), db.url, { serviceUrls });
    try {
      await expect.poll(async () => (await svc.ctx.orm.em.fork().findOne(ProjectionBackfill, { name: 'profile-names' }))?.rows, { timeout: 10_000 }).toBe(2);
      const headers = await svc.as({ kind: 'user', userId: 2, role: 'user' });
      const res = await svc.app.inject({ method: 'POST', url: '/bank-accounts', headers, payload: gbp('BRUNO SILVA') });
      expect(BankAccount.parse(res.json()).holderMatchesName).toBe(true);
    } finally {
      await svc.stop();
    }
    const before = calls;
    const again = await startTestService(accountsService(settings('on')), db.url, { serviceUrls: {} });
    try {
      expect((await again.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      expect(calls).toBe(before);
    } finally {
      await again.stop();
    }
  });
});
