import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Paths, type BankAccount, type BankAccountCreate } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/bank-accounts with the fields of the account's currency. */
export function createBankAccount(account: BankAccountCreate): Promise<BankAccount> {
  return api.post<BankAccount>(Paths.bankAccounts, account);
}

export function useCreateBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBankAccount,
    onSuccess: async () => {
      // The user's hasBothAccounts follows the accounts.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
      ]);
    },
  });
}
