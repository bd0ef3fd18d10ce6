/**
 * Two traders for the end-to-end tests of an exchange, Ana and Bob: their bank accounts (a GBP and a CLP one each),
 * added through the gateway, and the first steps of a trade, which wait until the exchange service has heard of
 * those accounts over the bus.
 */
import { expect, vi } from 'vitest';
import { BankAccount, type BankAccountCreateInput } from '@puente/contracts';
import type { AppClient, SignedIn } from '@puente/testkit';

export const traders = {
  ana: { email: 'ana@puente.test', password: 'password1', firstName: 'Ana', lastName: 'Diaz' },
  bob: { email: 'bob@puente.test', password: 'password2', firstName: 'Bob', lastName: 'Lee' },
};

export const bankAccountsOf: Record<keyof typeof traders, BankAccountCreateInput[]> = {
  ana: [
    { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Diaz', sortCode: '04-00-04' },
    { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Diaz', rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl' },
  ],
  bob: [
    { currency: 'GBP', bankName: 'Barclays', accountNumber: '55779911', accountHolder: 'Bob Lee', sortCode: '20-32-53' },
    { currency: 'CLP', bankName: 'Banco de Chile', accountNumber: '001234567809', accountHolder: 'Bob Lee', rut: '9.876.543-3', accountType: 'current', email: 'bob@example.cl' },
  ],
};

/** For what reaches a service through the bus: on Kafka a new topic is noticed within 10 s, then a rebalance. */
export const viaBus = { timeout: 60_000, interval: 200 };

/** Adds the trader's bank accounts; each is answered 201 with the account. */
export async function addBankAccounts(client: AppClient, user: SignedIn, inputs: BankAccountCreateInput[]): Promise<BankAccount[]> {
  const added: BankAccount[] = [];
  for (const body of inputs) added.push(BankAccount.parse(await client.json('/api/bank-accounts', 201, { cookie: user.cookie, body })));
  return added;
}

/** Posts a request (or accepts one) once the exchange service has heard of the caller's accounts: 403 until then. */
export function onceAccountsKnown(client: AppClient, path: string, user: SignedIn, body: unknown): Promise<unknown> {
  return vi.waitFor(async () => {
    const res = await client.call(path, { cookie: user.cookie, body });
    if (res.status === 403) throw new Error(`${path}: 403 ${await res.text()}`);
    expect(res.status, await res.clone().text()).toBe(201);
    return res.json();
  }, viaBus);
}
