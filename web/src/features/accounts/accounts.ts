/** Rules and words about bank accounts shared by the accounts page and the dashboard's accounts section. */
import { Currency, type BankAccount, type ClpAccountType } from '@puente/contracts';

export const Currencies = Currency.options;

export const CurrencyNames: Record<Currency, string> = { GBP: 'British pounds', CLP: 'Chilean pesos' };

export const AccountTypeLabels: Record<ClpAccountType, string> = {
  rut: 'Cuenta RUT',
  vista: 'Cuenta Vista',
  current: 'Cuenta Corriente (current)',
  debit: 'Debit account',
  credit: 'Credit account',
};

/** Spec section 2: both accounts when there are exactly 2 bank accounts or the user has hasBothAccounts. */
export function hasBothAccounts(accounts: readonly BankAccount[], user: { hasBothAccounts: boolean } | null): boolean {
  return accounts.length === 2 || Boolean(user?.hasBothAccounts);
}

export function missingCurrencies(accounts: readonly BankAccount[]): Currency[] {
  return Currencies.filter((currency) => !accounts.some((account) => account.currency === currency));
}

export const AccountMessages = {
  deleteConfirm: 'Are you sure you want to delete this account?',
  created: 'Account Created',
  updated: 'Account Updated',
  deleted: 'Account Deleted',
  createFailed: 'Failed to create account',
  updateFailed: 'Failed to update account',
  deleteFailed: 'Failed to delete account',
  added: 'Account Added',
} as const;
