import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Paths, fillPath } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** DELETE /api/bank-accounts/{id} (204). */
export function deleteBankAccount(id: number): Promise<void> {
  return api.delete(fillPath(Paths.bankAccount, { id }));
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
