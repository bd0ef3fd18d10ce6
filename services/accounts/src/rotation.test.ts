/**
 * Key rotation: values sealed with an older key stay readable while that key is listed, the re-encryption job
 * (run at start, then hourly) moves them, and the copies confirmed matches keep, to the first key, and then the old
 * key can be dropped.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BankAccount, BankAccountList, ErrorBody, MatchAccountsSnapshot } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AccountsSettings, accountsService } from './app.ts';

const key = () => randomBytes(32).toString('base64');
const start = (keys: string, url: string) => startTestService(accountsService(AccountsSettings.parse({ BANK_ENCRYPTION_KEYS: keys, PROJECTION_BACKFILL: 'off' })), url);

describeWithInfra(['postgres'], 'bank detail encryption keys rotate', () => {
  const db = useFreshDatabase('accounts_rotation');
  const running: TestService[] = [];
  afterAll(async () => { for (const s of running.reverse()) await s.stop(); });
  const oldKey = `old:${key()}`;
  const newKey = `new:${key()}`;
  let userId = 0;
  let created: BankAccount;
  let copy: MatchAccountsSnapshot;
  const match = { matchId: 1, requestId: 1, requesterId: 6, matcherId: 5 };
  const copyOf = async (svc: TestService) => {
    const res = await svc.app.inject({
      method: 'GET', url: '/internal/match-accounts?matchId=1&userIds=6,5&fromCurrency=GBP&toCurrency=CLP',
      headers: await svc.as({ kind: 'service', service: 'exchange' }),
    });
    expect(res.statusCode).toBe(200);
    return MatchAccountsSnapshot.parse(res.json());
  };
  beforeAll(async () => {
    const before = await start(oldKey, db.url);
    running.push(before);
    userId = 5;
    const res = await before.app.inject({
      method: 'POST', url: '/bank-accounts', headers: await before.as({ kind: 'user', userId, role: 'user' }),
      payload: { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana', sortCode: '040004', iban: 'GB33BUKB20201555555555' },
    });
    expect(res.statusCode).toBe(201);
    created = BankAccount.parse(res.json());
    // User 6 asks pounds for pesos and user 5 takes it: the match's copy holds 5's GBP account and 6's CLP one.
    const clp = await before.app.inject({
      method: 'POST', url: '/bank-accounts', headers: await before.as({ kind: 'user', userId: 6, role: 'user' }),
      payload: { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Bo', rut: '12.345.678-5', accountType: 'vista', email: 'bo@example.cl' },
    });
    expect(clp.statusCode).toBe(201);
    await before.deliver(makeEvent('matchConfirmed', 1, { ...match, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '10.00', exchangeRate: '1275.0000' }));
    copy = await copyOf(before);
    await before.stop();
    running.pop();
  });

  const keyIds = async (svc: TestService) => {
    const [row] = await svc.ctx.orm.em.fork().execute<Record<string, string>[]>(
      'select account_number_sealed, sort_code_sealed, iban_sealed from accounts.bank_account where user_id = 5');
    return Object.values(row!).map((v) => v.split(':')[0]);
  };
  const copyKeyIds = async (svc: TestService) => {
    const rows = await svc.ctx.orm.em.fork().execute<Record<string, string | null>[]>(
      'select account_number_sealed, rut_sealed, sort_code_sealed, iban_sealed from accounts.match_account_snapshot order by user_id');
    return rows.flatMap((row) => Object.values(row).flatMap((v) => (v ? [v.split(':')[0]] : [])));
  };
  const read = async (svc: TestService) => svc.app.inject({ method: 'GET', url: '/bank-accounts', headers: await svc.as({ kind: 'user', userId, role: 'user' }) });
  const accounts = async (svc: TestService) => {
    const res = await read(svc);
    expect(res.statusCode).toBe(200);
    return BankAccountList.parse(res.json());
  };

  it('reads old values with the old key listed second, re-seals them with the new key, then needs only the new key', async () => {
    const rotating = await start(`${newKey},${oldKey}`, db.url);
    running.push(rotating);
    expect(await accounts(rotating)).toEqual([created]);
    await expect.poll(() => keyIds(rotating), { timeout: 10_000, interval: 50, message: 'the job re-sealing with the new key' })
      .toEqual(['new', 'new', 'new']);
    // Bo's account number and RUT, and user 5's account number, sort code and IBAN.
    await expect.poll(() => copyKeyIds(rotating), { timeout: 10_000, interval: 50 }).toEqual(['new', 'new', 'new', 'new', 'new']);
    await rotating.stop();
    running.pop();

    const after = await start(newKey, db.url);
    running.push(after);
    expect(await accounts(after)).toEqual([created]);
    expect(await copyOf(after)).toEqual(copy);
  }, 20_000);

  it('answers a generic 500 (no details) when a row needs a key that is no longer listed', async () => {
    const wrong = await start(`other:${key()}`, db.url);
    running.push(wrong);
    const res = await read(wrong);
    expect(res.statusCode).toBe(500);
    expect(ErrorBody.parse(res.json())).toEqual({ message: 'Something went wrong. Please try again.', code: 'internal' });
  });
});
