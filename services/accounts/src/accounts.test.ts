import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankAccount, BankAccountList, BankAccountMessages, ErrorBody, MatchAccountsSnapshot, ValidationMessages as M } from '@puente/contracts';
import { PLATFORM_TABLES, schemaReport, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { AccountsSettings, accountsService } from './app.ts';

const settings = () => AccountsSettings.parse({ BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, PROJECTION_BACKFILL: 'off' });

const gbp = { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas', sortCode: '04-00-04' };
const clp = {
  currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Rojas',
  rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl',
};

describeWithInfra(['postgres'], 'accounts service', () => {
  const db = useFreshDatabase('accounts');
  let svc: TestService;
  let nextUser = 100;
  beforeAll(async () => { svc = await startTestService(accountsService(settings()), db.url); });
  afterAll(async () => { await svc?.stop(); });

  const newUser = () => { nextUser += 1; return nextUser; };
  async function call(userId: number | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
    const headers = userId === null ? {} : await svc.as({ kind: 'user', userId, role: 'user' });
    return svc.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  }
  const create = (userId: number, payload: object) => call(userId, 'POST', '/bank-accounts', payload);
  /** Bodies are read through the route's contract (an answer it refuses fails the test). */
  const add = async (userId: number, payload: object) => {
    const res = await create(userId, payload);
    expect(res.statusCode).toBe(201);
    return BankAccount.parse(res.json());
  };
  const list = async (userId: number) => {
    const res = await call(userId, 'GET', '/bank-accounts');
    expect(res.statusCode).toBe(200);
    return BankAccountList.parse(res.json());
  };
  const errorOf = (res: { json(): unknown }) => ErrorBody.parse(res.json());
  async function eventsOf(accountId: number) {
    await svc.ctx.relay.flush();
    await svc.bus.drain();
    // Delivery is at least once (a test's flush can race the relay's own poll): one entry per event id.
    const mine = new Map(svc.published().filter((e) => e.aggregateId === String(accountId)).map((e) => [e.id, e]));
    return [...mine.values()].map((e) => [e.type, e.payload]);
  }

  it('migrates its own schema, and only it, and reports ready', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const { schemas, tables } = await schemaReport(svc);
    expect(schemas).toEqual(['accounts']);
    expect(tables).toEqual(expect.arrayContaining([...PLATFORM_TABLES, 'bank_account']));
  });

  describe('adding accounts', () => {
    it('adds a GBP and a CLP account (201, the account back with normalised values) and lists them', async () => {
      const user = newUser();
      const g = await add(user, { ...gbp, iban: 'gb82 west 1234 5698 7654 32' });
      expect(g).toEqual({
        id: expect.any(Number), currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Rojas',
        sortCode: '040004', iban: 'GB82WEST12345698765432', rut: null, accountType: null, email: null,
        holderMatchesName: null, // no profile name known for this user (holder-names.test.ts checks the flag)
      });
      const c = await add(user, { ...clp, sortCode: '' });
      expect(c).toEqual({
        id: expect.any(Number), currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Rojas',
        rut: '12345678-5', accountType: 'vista', email: 'ana@example.cl', sortCode: null, iban: null, holderMatchesName: null,
      });
      expect(await list(user)).toEqual([g, c]);
      expect(await eventsOf(g.id)).toEqual([
        ['accounts.bank-account.added', { accountId: g.id, userId: user, currency: 'GBP' }],
      ]);
    });

    it('refuses a second account in the same currency with 409', async () => {
      const user = newUser();
      await add(user, gbp);
      const again = await create(user, { ...gbp, bankName: 'Barclays' });
      expect(again.statusCode).toBe(409);
      expect(errorOf(again)).toEqual({ message: 'You already have a GBP account', code: 'bank_account_exists' });
      expect(await list(user)).toHaveLength(1);
    });

    it('lets exactly one of several concurrent creates in the same currency through', async () => {
      const user = newUser();
      const answers = await Promise.all(Array.from({ length: 4 }, () => create(user, clp)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
      for (const a of answers.filter((x) => x.statusCode === 409)) expect(errorOf(a).message).toBe('You already have a CLP account');
      expect(await list(user)).toHaveLength(1);
    });

    it('answers 401 to a request without a signed-in user', async () => {
      for (const [method, url] of [['GET', '/bank-accounts'], ['POST', '/bank-accounts'], ['PUT', '/bank-accounts/1'], ['DELETE', '/bank-accounts/1']] as const) {
        const res = await call(null, method, url, method === 'POST' || method === 'PUT' ? gbp : undefined);
        expect([url, res.statusCode]).toEqual([url, 401]);
      }
    });
  });

  describe("the spec's validation messages (section 5), as 400 { message, code, errors }", () => {
    const refused = async (payload: object) => {
      const res = await create(newUser(), payload);
      expect(res.statusCode).toBe(400);
      const body = errorOf(res);
      expect(body.code).toBe('validation_failed');
      expect(body.message).toBe(body.errors?.[0]?.message);
      return { message: body.message, errors: body.errors ?? [] };
    };

    it('currency must be GBP or CLP', async () => {
      expect((await refused({ ...gbp, currency: 'EUR' })).errors).toEqual([{ field: 'currency', message: M.currencyInvalid }]);
    });

    it('bank name, account number and holder are required', async () => {
      const body = await refused({ currency: 'GBP', sortCode: '040004', bankName: ' ', accountNumber: '' });
      expect(body.message).toBe('Bank name is required');
      expect(body.errors).toEqual([
        { field: 'bankName', message: 'Bank name is required' },
        { field: 'accountNumber', message: 'Account number is required' },
        { field: 'accountHolder', message: 'Account holder name is required' },
      ]);
    });

    it('a CLP account needs RUT, account type and email; an email must be valid', async () => {
      const { rut: _r, accountType: _t, email: _e, ...common } = clp;
      const body = await refused(common);
      expect(body.message).toBe('RUT is required for CLP accounts');
      expect(body.errors.map((e) => e.message)).toEqual([
        'RUT is required for CLP accounts', 'Account type is required for CLP accounts', 'Email is required for CLP accounts',
      ]);
      expect((await refused({ ...clp, email: 'ana@' })).message).toBe('Invalid email');
      expect((await refused({ ...clp, accountType: 'savings' })).message).toBe(M.accountTypeInvalid);
    });

    it('a GBP account needs a sort code', async () => {
      const { sortCode: _s, ...common } = gbp;
      expect((await refused(common)).errors).toEqual([{ field: 'sortCode', message: 'Sort code is required for GBP accounts' }]);
    });

    it('a malformed JSON body is a 400 too', async () => {
      const res = await svc.app.inject({
        method: 'POST', url: '/bank-accounts', payload: '{"currency":', headers: { ...(await svc.as({ kind: 'user', userId: 1, role: 'user' })), 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe('Malformed JSON body');
    });
  });

  describe('bank-grade checks, each message naming its field', () => {
    const firstError = async (payload: object) => {
      const res = await create(newUser(), payload);
      expect(res.statusCode).toBe(400);
      return errorOf(res).errors?.[0];
    };

    it("checks a RUT's modulo-11 check digit and accepts it dotted or plain, storing 12345678-5", async () => {
      expect(await firstError({ ...clp, rut: '12.345.678-4' })).toEqual({ field: 'rut', message: BankAccountMessages.rutInvalid });
      expect(await firstError({ ...clp, rut: '12345678-K' })).toEqual({ field: 'rut', message: BankAccountMessages.rutInvalid });
      expect(await firstError({ ...clp, rut: 'ABC' })).toEqual({ field: 'rut', message: BankAccountMessages.rutInvalid });
      expect((await add(newUser(), { ...clp, rut: '12345678-5' })).rut).toBe('12345678-5');
      expect((await add(newUser(), { ...clp, rut: '10.000.013-k' })).rut).toBe('10000013-K');
    });

    it('takes a sort code of 6 digits (12-34-56 accepted) and a GBP account number of 8 digits', async () => {
      expect(await firstError({ ...gbp, sortCode: '12-34-5' })).toEqual({ field: 'sortCode', message: BankAccountMessages.sortCodeInvalid });
      expect(await firstError({ ...gbp, sortCode: '12345X' })).toEqual({ field: 'sortCode', message: BankAccountMessages.sortCodeInvalid });
      expect(await firstError({ ...gbp, accountNumber: '1234567' })).toEqual({ field: 'accountNumber', message: BankAccountMessages.gbpAccountNumberInvalid });
      expect((await add(newUser(), { ...gbp, sortCode: '12-34-56' })).sortCode).toBe('123456');
    });

    it("checks an IBAN's mod-97 checksum when one is given, for either currency", async () => {
      expect(await firstError({ ...gbp, iban: 'GB82WEST12345698765433' })).toEqual({ field: 'iban', message: BankAccountMessages.ibanInvalid });
      expect(await firstError({ ...clp, iban: 'NOT-AN-IBAN' })).toEqual({ field: 'iban', message: BankAccountMessages.ibanInvalid });
      expect((await add(newUser(), { ...clp, iban: 'DE89 3704 0044 0532 0130 00' })).iban).toBe('DE89370400440532013000');
    });
  });

  describe('editing and deleting', () => {
    it('changes only bank name, account number and holder: the currency and the rest stay (200)', async () => {
      const user = newUser();
      const created = await add(user, { ...gbp, iban: 'GB33BUKB20201555555555' });
      const res = await call(user, 'PUT', `/bank-accounts/${created.id}`, {
        bankName: 'Lloyds', accountNumber: '8765 4321', accountHolder: 'Ana M. Rojas',
        currency: 'CLP', sortCode: '999999', rut: '12.345.678-5', iban: 'DE89370400440532013000', id: 999,
      });
      expect(res.statusCode).toBe(200);
      const expected = { ...created, bankName: 'Lloyds', accountNumber: '87654321', accountHolder: 'Ana M. Rojas' };
      expect(BankAccount.parse(res.json())).toEqual(expected);
      expect(await list(user)).toEqual([expected]);
      expect(await eventsOf(created.id)).toEqual([
        ['accounts.bank-account.added', { accountId: created.id, userId: user, currency: 'GBP' }],
        ['accounts.bank-account.updated', { accountId: created.id, userId: user, currency: 'GBP' }],
      ]);
    });

    it("validates an edit with the spec's messages and the account's currency rules", async () => {
      const user = newUser();
      const created = await add(user, gbp);
      const blank = await call(user, 'PUT', `/bank-accounts/${created.id}`, { bankName: '', accountNumber: '31926819', accountHolder: 'Ana' });
      expect(blank.statusCode).toBe(400);
      expect(errorOf(blank).message).toBe('Bank name is required');
      const short = await call(user, 'PUT', `/bank-accounts/${created.id}`, { bankName: 'Lloyds', accountNumber: '123', accountHolder: 'Ana' });
      expect(short.statusCode).toBe(400);
      expect(errorOf(short).message).toBe(BankAccountMessages.gbpAccountNumberInvalid);
      expect(await list(user)).toEqual([created]);
    });

    it('deletes an account (204), announces it, and the currency can be added again', async () => {
      const user = newUser();
      const created = await add(user, clp);
      const res = await call(user, 'DELETE', `/bank-accounts/${created.id}`);
      expect([res.statusCode, res.body]).toEqual([204, '']);
      expect(await list(user)).toEqual([]);
      expect((await call(user, 'DELETE', `/bank-accounts/${created.id}`)).statusCode).toBe(404);
      expect(await eventsOf(created.id)).toEqual([
        ['accounts.bank-account.added', { accountId: created.id, userId: user, currency: 'CLP' }],
        ['accounts.bank-account.removed', { accountId: created.id, userId: user, currency: 'CLP' }],
      ]);
      await add(user, clp);
    });

    it('answers 400 to an id that is not a number', async () => {
      const user = newUser();
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await call(user, method, '/bank-accounts/abc', method === 'PUT' ? { bankName: 'B', accountNumber: '1', accountHolder: 'H' } : undefined);
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).message).toBe(M.idInvalid);
      }
    });
  });

  it("never lets a user reach another user's account: 404 on edit and delete, absent from their list", async () => {
    const owner = newUser();
    const other = newUser();
    const account = await add(owner, gbp);
    expect(await list(other)).toEqual([]);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await call(other, method, `/bank-accounts/${account.id}`, method === 'PUT' ? { bankName: 'Evil', accountNumber: '11111111', accountHolder: 'Mallory' } : undefined);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res)).toEqual({ message: 'Bank account not found', code: 'not_found' });
      expect(res.body).not.toContain('31926819');
    }
    const missing = await call(other, 'PUT', '/bank-accounts/999999', { bankName: 'Evil', accountNumber: '11111111', accountHolder: 'Mallory' });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing)).toEqual({ message: 'Bank account not found', code: 'not_found' });
    expect(await list(owner)).toEqual([account]);
  });

  it('keeps account number, RUT, sort code and IBAN out of the database in clear, and out of events', async () => {
    const user = newUser();
    const details = ['48151623', '10000013-K', '10000013', '602938', 'GB29NWBK60161331926819', '60161331926819'];
    const g = await add(user, { ...gbp, accountNumber: '48151623', sortCode: '60-29-38', iban: 'GB29 NWBK 6016 1331 9268 19' });
    const c = await add(user, { ...clp, accountNumber: '10000013', rut: '10.000.013-K' });
    const rows = await svc.ctx.orm.em.fork().execute<Record<string, unknown>[]>(
      'select * from accounts.bank_account where user_id = ? order by id', [user]);
    expect(rows).toHaveLength(2);
    const raw = JSON.stringify(rows);
    for (const value of [...details, '60-29-38', '10.000.013']) expect([value, raw.includes(value)]).toEqual([value, false]);
    expect(rows[0]).toMatchObject({ bank_name: 'Monzo', account_number_sealed: expect.stringMatching(/^k1:/), sort_code_sealed: expect.stringMatching(/^k1:/), iban_sealed: expect.stringMatching(/^k1:/), rut_sealed: null });
    expect(rows[1]).toMatchObject({ account_number_sealed: expect.stringMatching(/^k1:/), rut_sealed: expect.stringMatching(/^k1:/), sort_code_sealed: null, iban_sealed: null });
    // ...while the owner reads them in full.
    expect((await list(user)).map((a) => a.accountNumber)).toEqual(['48151623', '10000013']);
    const events = JSON.stringify([...(await eventsOf(g.id)), ...(await eventsOf(c.id))]);
    for (const value of details) expect([value, events.includes(value)]).toEqual([value, false]);
  });

  describe('GET /internal/match-accounts (exchange service only)', () => {
    it("gives the exchange service the match's copy: each party's account in the currency they receive, in full", async () => {
      const requester = newUser();
      const matcher = newUser();
      const outsider = newUser();
      const rg = await add(requester, gbp);
      const rc = await add(requester, clp);
      const mg = await add(matcher, { ...gbp, accountNumber: '11223344', accountHolder: 'Bo' });
      await add(outsider, gbp);
      // Ana (the requester) sends pounds and receives pesos: her CLP account; Bo receives pounds: his GBP account.
      const res = await svc.app.inject({
        method: 'GET', url: `/internal/match-accounts?matchId=9001&userIds=${requester},${matcher}&fromCurrency=GBP&toCurrency=CLP`,
        headers: await svc.as({ kind: 'service', service: 'exchange' }),
      });
      expect(res.statusCode).toBe(200);
      expect(MatchAccountsSnapshot.parse(res.json())).toEqual({
        matchId: 9001, takenAt: expect.any(String),
        requester: { userId: requester, payout: rc, payer: { accountHolder: rg.accountHolder, holderMatchesName: null } },
        matcher: { userId: matcher, payout: mg, payer: null },
      });
    });

    it('refuses users, other services and nobody with 403, and a bad query with 400', async () => {
      const url = '/internal/match-accounts?matchId=1&userIds=1,2&fromCurrency=GBP&toCurrency=CLP';
      for (const headers of [
        await svc.as({ kind: 'user', userId: 1, role: 'user' }),
        await svc.as({ kind: 'user', userId: 1, role: 'admin' }),
        await svc.as({ kind: 'service', service: 'rating' }),
        {},
      ]) {
        const res = await svc.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode).toBe(403);
        expect(res.body).not.toContain('accountNumber');
      }
      const exchange = await svc.as({ kind: 'service', service: 'exchange' });
      const terms = 'matchId=1&fromCurrency=GBP&toCurrency=CLP';
      for (const q of [terms, `${terms}&userIds=1`, `${terms}&userIds=1,1`, `${terms}&userIds=1,x`, `${terms}&userIds=1,2,3`]) {
        const res = await svc.app.inject({ method: 'GET', url: `/internal/match-accounts?${q}`, headers: exchange });
        expect([q, res.statusCode]).toEqual([q, 400]);
        expect(errorOf(res).message).toBe(BankAccountMessages.userIdsInvalid);
      }
      for (const q of ['userIds=1,2&fromCurrency=GBP&toCurrency=CLP', 'matchId=1&userIds=1,2&fromCurrency=GBP&toCurrency=GBP']) {
        const res = await svc.app.inject({ method: 'GET', url: `/internal/match-accounts?${q}`, headers: exchange });
        expect([q, res.statusCode]).toEqual([q, 400]);
      }
    });
  });
});
