import { queryOptions, useQuery } from '@tanstack/react-query';
import { Paths, type BankAccountList } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/bank-accounts: the signed-in user's accounts, full values (the app masks them); 401 reads as none. */
export async function getBankAccounts(): Promise<BankAccountList> {
  return (await api.read<BankAccountList>(Paths.bankAccounts)) ?? [];
}

export function bankAccountsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.bankAccounts, queryFn: getBankAccounts });
}

export function useBankAccounts() {
  return useQuery(bankAccountsQueryOptions());
}
