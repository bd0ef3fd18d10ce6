import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** POST /api/bank-accounts with the fields of the account's currency. */
export function createBankAccount(account: BodyOf<typeof Routes.accounts.create>) {
  return call(Routes.accounts.create, { body: account });
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
