/**
 * Accounts and identity on one bus: identity's hasBothAccounts follows the accounts a user adds and removes
 * through this service's API (accounts.bank-account.added / removed, through the outbox and the bus).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InProcessBus, createLogger } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
// Identity by relative path: @puente/identity is not a dependency of this workspace (adding it needs an
// npm install), and only this test needs it.
import { identityService } from '../../identity/src/app.ts';
import { User } from '../../identity/src/domain/user.ts';
import { AccountsSettings, accountsService } from './app.ts';

describeWithInfra(['postgres'], 'hasBothAccounts on the identity user follows the bank accounts', () => {
  const db = useFreshDatabase('accounts_identity');
  const bus = new InProcessBus({ logger: createLogger({ name: 'test-bus', level: 'warn' }) });
  let identity: TestService;
  let accounts: TestService;
  let userId: number;

  beforeAll(async () => {
    identity = await startTestService(identityService({}, { printAdmin: () => {} }), db.url, { bus });
    accounts = await startTestService(accountsService(AccountsSettings.parse({
      BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    })), db.url, { bus });
    const em = identity.ctx.orm.em.fork();
    const user = em.create(User, {
      email: 'ana@puente.test', firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, referralCode: 'ANA12345', referredById: null, trustRating: null,
    });
    await em.flush();
    userId = user.id;
  });
  afterAll(async () => {
    await accounts?.stop();
    await identity?.stop();
    await bus.close();
  });

  const send = async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
    const res = await accounts.app.inject({ method, url, headers: await accounts.as({ kind: 'user', userId, role: 'user' }), ...(payload ? { payload } : {}) });
    // Let accounts' outbox publish and identity consume.
    await accounts.ctx.relay.flush();
    await bus.drain();
    return res;
  };
  const hasBothAccounts = async () => (await identity.ctx.orm.em.fork().findOneOrFail(User, { id: userId })).hasBothAccounts;

  it('becomes true once a GBP and a CLP account exist, and false when one is deleted', async () => {
    expect(await hasBothAccounts()).toBe(false);
    const gbp = await send('POST', '/bank-accounts', {
      currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas', sortCode: '04-00-04',
    });
    expect(gbp.statusCode).toBe(201);
    expect(await hasBothAccounts()).toBe(false);
    const clp = await send('POST', '/bank-accounts', {
      currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Rojas',
      rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl',
    });
    expect(clp.statusCode).toBe(201);
    expect(await hasBothAccounts()).toBe(true);
    expect((await send('DELETE', `/bank-accounts/${gbp.json().id}`)).statusCode).toBe(204);
    expect(await hasBothAccounts()).toBe(false);
  });
});
