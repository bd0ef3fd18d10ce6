import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** GET /api/bank-accounts: the signed-in user's accounts, full values (the app masks them); 401 reads as none. */
export async function getBankAccounts() {
  return (await read(Routes.accounts.list)) ?? [];
}

export function bankAccountsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.bankAccounts, queryFn: getBankAccounts });
}

export function useBankAccounts() {
  return useQuery(bankAccountsQueryOptions());
}
