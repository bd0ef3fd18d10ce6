import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { ClpAccountType, Currency, type BankAccount as BankAccountView, type BankAccountCreate } from '@puente/contracts';
import type { BankCipher } from './encryption.ts';
import { holderChecks } from './profile-name.ts';

/**
 * A user's bank account: at most one per currency per user (a unique index, so two racing creates are settled by
 * the database). Account number, RUT, sort code and IBAN are held only sealed (domain/encryption.ts); bank name,
 * holder, account type and email are plain.
 */
export const BankAccountSchema = defineEntity({
  name: 'BankAccount',
  tableName: 'bank_account',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    currency: p.enum(Currency.options),
    bankName: p.string(),
    accountHolder: p.string(),
    accountNumberSealed: p.text(),
    /** CLP only. */
    rutSealed: p.text().nullable(),
    accountType: p.enum(ClpAccountType.options).nullable(),
    email: p.string().nullable(),
    /** GBP only. */
    sortCodeSealed: p.text().nullable(),
    ibanSealed: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  uniques: [{ name: 'bank_account_user_id_currency_unique', properties: ['userId', 'currency'] }],
});
export class BankAccount extends BankAccountSchema.class {}
BankAccountSchema.setClass(BankAccount);

/** The columns of a new account, its details sealed for `userId`. */
export function sealNewAccount(cipher: BankCipher, userId: number, input: BankAccountCreate) {
  const seal = (field: 'rut' | 'sortCode' | 'iban', value: string | undefined) =>
    value === undefined ? null : cipher.seal(field, userId, value);
  return {
    userId,
    currency: input.currency,
    bankName: input.bankName,
    accountHolder: input.accountHolder,
    accountNumberSealed: cipher.seal('accountNumber', userId, input.accountNumber),
    rutSealed: seal('rut', input.currency === 'CLP' ? input.rut : undefined),
    accountType: input.currency === 'CLP' ? input.accountType : null,
    email: input.currency === 'CLP' ? input.email : null,
    sortCodeSealed: seal('sortCode', input.currency === 'GBP' ? input.sortCode : undefined),
    ibanSealed: seal('iban', input.iban),
  };
}

/** Seals every detail of `account` again with the current key (after an edit, or to retire an old key). */
export function reseal(cipher: BankCipher, account: BankAccount): void {
  const { userId } = account;
  account.accountNumberSealed = cipher.seal('accountNumber', userId, cipher.open('accountNumber', userId, account.accountNumberSealed));
  if (account.rutSealed) account.rutSealed = cipher.seal('rut', userId, cipher.open('rut', userId, account.rutSealed));
  if (account.sortCodeSealed) account.sortCodeSealed = cipher.seal('sortCode', userId, cipher.open('sortCode', userId, account.sortCodeSealed));
  if (account.ibanSealed) account.ibanSealed = cipher.seal('iban', userId, cipher.open('iban', userId, account.ibanSealed));
}

/**
 * The accounts as their owner reads them, in the order given: full values; fields of the other currency are null;
 * and whether the holder is the owner's profile name (domain/profile-name.ts).
 */
export async function toBankAccountViews(em: EntityManager, cipher: BankCipher, accounts: BankAccount[]): Promise<BankAccountView[]> {
  const checks = await holderChecks(em, accounts);
  return accounts.map((account) => {
    const { userId } = account;
    return {
      id: account.id,
      currency: account.currency,
      bankName: account.bankName,
      accountNumber: cipher.open('accountNumber', userId, account.accountNumberSealed),
      accountHolder: account.accountHolder,
      rut: account.rutSealed ? cipher.open('rut', userId, account.rutSealed) : null,
      accountType: account.accountType ?? null,
      email: account.email ?? null,
      sortCode: account.sortCodeSealed ? cipher.open('sortCode', userId, account.sortCodeSealed) : null,
      iban: account.ibanSealed ? cipher.open('iban', userId, account.ibanSealed) : null,
      holderMatchesName: checks.get(account) ?? null,
    };
  });
}
