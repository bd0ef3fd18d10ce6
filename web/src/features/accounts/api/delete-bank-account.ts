import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /api/bank-accounts/{id} (204). */
export function deleteBankAccount(id: number) {
  return call(Routes.accounts.remove, { params: { id } });
}

export function useDeleteBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBankAccount,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts }),
        queryClient.invalidateQueries({ queryKey: queryKeys.currentUser }),
      ]);
    },
  });
}
