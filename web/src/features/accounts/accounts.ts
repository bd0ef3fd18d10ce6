/** Rules about bank accounts shared by the accounts page and the dashboard's accounts section (words: locales/en/accounts.ts). */
import { Currency, type BankAccount } from '@puente/contracts';

export const Currencies = Currency.options;


/** Spec section 2: both accounts when there are exactly 2 bank accounts or the user has hasBothAccounts. */
export function hasBothAccounts(accounts: readonly BankAccount[], user: { hasBothAccounts: boolean } | null): boolean {
  return accounts.length === 2 || Boolean(user?.hasBothAccounts);
}

export function missingCurrencies(accounts: readonly BankAccount[]): Currency[] {
  return Currencies.filter((currency) => !accounts.some((account) => account.currency === currency));
}
