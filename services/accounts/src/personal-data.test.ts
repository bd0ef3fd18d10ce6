/** A user's data: their bank accounts in their data download, and gone once they delete their account. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountsPersonalData, BankAccount, BankAccountList } from '@puente/contracts';
import { makeEvent, type Caller } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AccountsSettings, accountsService } from './app.ts';

const ANA = 201;
const BEA = 202;
const gbp = { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas', sortCode: '04-00-04' };
const clp = {
  currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Rojas',
  rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl',
};

describeWithInfra(['postgres'], 'a user\'s bank accounts: downloaded, and erased with the account', () => {
  const db = useFreshDatabase('accounts_personal_data');
  let svc: TestService;
  const added: Record<number, BankAccount[]> = {};
  beforeAll(async () => {
    svc = await startTestService(accountsService(AccountsSettings.parse({ BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, PROJECTION_BACKFILL: 'off' })), db.url);
    for (const [userId, inputs] of [[ANA, [gbp, clp]], [BEA, [{ ...gbp, accountHolder: 'Bea Soto' }]]] as const) {
      added[userId] = [];
      for (const payload of inputs) {
        const res = await svc.app.inject({ method: 'POST', url: '/bank-accounts', headers: await svc.as({ kind: 'user', userId, role: 'user' }), payload });
        expect(res.statusCode, res.body).toBe(201);
        added[userId].push(BankAccount.parse(res.json()));
      }
    }
  });
  afterAll(async () => { await svc?.stop(); });

  const personalData = async (userId: number, caller: Caller = { kind: 'service', service: 'identity' }) =>
    svc.app.inject({ method: 'GET', url: `/internal/personal-data/bank-accounts?userId=${userId}`, headers: await svc.as(caller) });
  const list = async (userId: number) => BankAccountList.parse((await svc.app.inject({
    method: 'GET', url: '/bank-accounts', headers: await svc.as({ kind: 'user', userId, role: 'user' }),
  })).json());
  const removals = async () => {
    await svc.ctx.relay.flush();
    await svc.bus.drain();
    const seen = new Set<string>();
    return svc.published().filter((e) => e.type === 'accounts.bank-account.removed' && !seen.has(e.id) && seen.add(e.id)).map((e) => e.payload);
  };

  it('answers identity with the user\'s accounts, full values, and nobody else', async () => {
    const res = await personalData(ANA);
    expect(res.statusCode).toBe(200);
    expect(AccountsPersonalData.parse(res.json())).toEqual({ bankAccounts: added[ANA] });
    expect(added[ANA]!.map((a) => a.accountNumber)).toEqual(['31926819', '987654321']);
    expect(AccountsPersonalData.parse((await personalData(9999)).json())).toEqual({ bankAccounts: [] });
    expect((await personalData(ANA, { kind: 'service', service: 'exchange' })).statusCode).toBe(403);
    expect((await personalData(ANA, { kind: 'user', userId: ANA, role: 'user' })).statusCode).toBe(403);
  });

  it('deletes every bank account of a deleted user, announces each removal, and applies a redelivery once', async () => {
    const deleted = makeEvent('userDeleted', ANA, { userId: ANA });
    await svc.deliver(deleted);
    expect(await list(ANA)).toEqual([]);
    expect(await list(BEA)).toEqual(added[BEA]);
    const announced = added[ANA]!.map((a) => ({ accountId: a.id, userId: ANA, currency: a.currency }));
    expect(await removals()).toEqual(announced);

    await svc.deliver(deleted);
    expect(await removals()).toEqual(announced);
    expect(AccountsPersonalData.parse((await personalData(ANA)).json())).toEqual({ bankAccounts: [] });
  });
});
