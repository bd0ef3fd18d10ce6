/**
 * Secrets stay secret: a whole exchange and each party's data download (bank details in full, to their
 * owner) in distributed mode (every process logging at debug), then a
 * search of every row of every table of the database — the outbox and inbox hold every event the services published
 * and consumed — and of every log line, for the account numbers, RUTs, sort codes, IBANs, passwords, session tokens
 * and verification tokens used. None may appear in clear. Emails are left out on purpose: a verification or reset
 * email carries its link, and is written only to the mail folder (folder 0700, files 0600).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pg from 'pg';
import { BankAccount, ExchangeMatch, ExchangeRequest, PersonalDataExport, SignupRequestResponse, type BankAccountCreateInput } from '@puente/contracts';
import { appClient, describeWithInfra, type SignedIn } from '@puente/testkit';
import { startDistributedApp, type RunningTestApp } from './testing/running-app.ts';

const ADMIN = { email: 'admin@puente.test', password: 'Admin-Pw-q8v2m5x1', code: 'SECRET-CODE' };

/** Occurrences of `needle` as a whole token: not inside a longer run of letters or digits (timestamps, hashes). */
function count(haystack: string, needle: string): number {
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return haystack.match(new RegExp(`(?<![0-9A-Za-z])${escaped}(?![0-9A-Za-z])`, 'g'))?.length ?? 0;
}

/** Every row of every table of the services' schemas, as JSON text: what a pg_dump of the data would hold. */
async function databaseDump(databaseUrl: string): Promise<{ text: string; tables: number; rows: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`);
    let text = '';
    let rows = 0;
    for (const { schema, name } of tables) {
      const result = await client.query<{ row: string }>(`select row_to_json(t)::text as row from "${schema}"."${name}" t`);
      rows += result.rowCount ?? 0;
      text += `${schema}.${name}\n${result.rows.map((r) => r.row).join('\n')}\n`;
    }
    return { text, tables: tables.length, rows };
  } finally {
    await client.end();
  }
}

describeWithInfra(['postgres', 'redis', 'kafka'], 'secrets through a whole exchange (distributed, debug logs)', () => {
  let app: RunningTestApp;
  beforeAll(async () => {
    app = await startDistributedApp('secrets', {
      ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
      BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, LOG_LEVEL: 'debug',
    });
  }, 120_000);
  afterAll(async () => { await app?.stop(); }, 60_000);

  it('finds no account number, RUT, sort code, IBAN, password, session or verification token in the database or the logs', async () => {
    const client = appClient(app.url);
    const secrets: Record<string, string> = {};
    const people = [
      { email: 'ana@puente.test', password: 'Ana-Pw-7f3k9q2z', firstName: 'Ana', lastName: 'Diaz' },
      { email: 'bruno@puente.test', password: 'Bruno-Pw-4m8t1w6c', firstName: 'Bruno', lastName: 'Silva' },
    ];
    const signedIn: SignedIn[] = [];
    for (const person of people) {
      // The sign-up by hand, to keep its verification token.
      const signup = SignupRequestResponse.parse(await client.json('/api/signup/request', 201, { body: { ...person, referralCode: ADMIN.code } }));
      secrets[`${person.firstName}'s verification token`] = signup.verificationToken!;
      await client.json('/api/signup/verify', 200, { body: { token: signup.verificationToken } });
      const { cookie } = await client.login(person.email, person.password);
      secrets[`${person.firstName}'s password`] = person.password;
      secrets[`${person.firstName}'s session token`] = decodeURIComponent(cookie!.split('=')[1]!).split('.')[0]!;
      const me = (await client.json('/api/auth/user', 200, { cookie: cookie! })) as { id: number };
      signedIn.push({ ...person, id: me.id, cookie: cookie! });
    }
    const [ana, bruno] = signedIn as [SignedIn, SignedIn];
    const accounts: [SignedIn, BankAccountCreateInput[]][] = [
      [ana, [
        { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Diaz', sortCode: '71-94-28', iban: 'GB33BUKB20201555555555' },
        { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Diaz', rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl' },
      ]],
      [bruno, [
        { currency: 'GBP', bankName: 'Barclays', accountNumber: '55779911', accountHolder: 'Bruno Silva', sortCode: '20-32-53' },
        { currency: 'CLP', bankName: 'Banco de Chile', accountNumber: '00-123-45678-09', accountHolder: 'Bruno Silva', rut: '9.876.543-3', accountType: 'current', email: 'bruno@example.cl' },
      ]],
    ];
    for (const [user, inputs] of accounts) {
      for (const body of inputs) {
        const stored = BankAccount.parse(await client.json('/api/bank-accounts', 201, { cookie: user.cookie, body }));
        // Both as typed and as stored (digits only for sort codes, the RUT without dots).
        const who = `${user.firstName}'s ${stored.currency}`;
        secrets[`${who} account number`] = stored.accountNumber;
        if (stored.sortCode) { secrets[`${who} sort code`] = stored.sortCode; secrets[`${who} sort code as typed`] = String(body.sortCode); }
        if (stored.rut) { secrets[`${who} RUT`] = stored.rut; secrets[`${who} RUT as typed`] = String(body.rut); }
        if (stored.iban) secrets[`${who} IBAN`] = stored.iban;
      }
    }

    // The exchange: posted once the exchange service knows Ana's accounts, accepted, approved, details read by both, completed, rated.
    const request = ExchangeRequest.parse(await vi.waitFor(async () => {
      const res = await client.call('/api/exchange-requests', { cookie: ana.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 } });
      if (res.status !== 201) throw new Error(`posting: ${res.status} ${await res.text()}`);
      return res.json();
    }, { timeout: 60_000, interval: 250 }));
    const match = ExchangeMatch.parse(await vi.waitFor(async () => {
      const res = await client.call('/api/exchange-matches', { cookie: bruno.cookie, body: { exchangeRequestId: request.id } });
      if (res.status !== 201) throw new Error(`accepting: ${res.status} ${await res.text()}`);
      return res.json();
    }, { timeout: 60_000, interval: 250 }));
    await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
    for (const user of [ana, bruno]) await client.json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: user.cookie });
    await client.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bruno.cookie });
    await vi.waitFor(() => client.json('/api/ratings', 201, { cookie: ana.cookie, body: { exchangeMatchId: match.id, toUserId: bruno.id, rating: 5 } }), { timeout: 60_000, interval: 250 });
    // Each downloads their data: their bank details travel to them from the accounts service, and nowhere else.
    for (const user of [ana, bruno]) {
      const data = PersonalDataExport.parse(await client.json('/api/users/me/data', 200, { cookie: user.cookie }));
      expect(data.accounts.bankAccounts).toHaveLength(2);
    }
    // A wrong password and a reset request, which log and audit attempts.
    await client.login(ana.email, 'Wrong-Pw-9z8y7x6w');
    secrets['a mistyped password'] = 'Wrong-Pw-9z8y7x6w';
    await client.json('/api/auth/forgot-password', 200, { body: { email: ana.email } });
    await new Promise((r) => setTimeout(r, 3_000)); // the events of the last steps reach their consumers and logs

    const dump = await databaseDump(app.databaseUrl!);
    const log = app.log().join('\n');
    const found = Object.entries(secrets).flatMap(([what, value]) => {
      const inDatabase = count(dump.text, value);
      const inLogs = count(log, value);
      return inDatabase + inLogs > 0 ? [{ what, inDatabase, inLogs }] : [];
    });
    console.log(`secrets searched: ${Object.keys(secrets).length} values in ${dump.rows} rows of ${dump.tables} tables and ${app.log().length} log lines; secrets found: ${found.length}`);
    expect(found).toEqual([]);
    // The search itself works: what is meant to be there is found.
    expect(count(dump.text, 'ana@puente.test')).toBeGreaterThan(0);
    expect(count(log, 'debug') + count(log, '"level":20')).toBeGreaterThan(0);
  }, 240_000);
});
