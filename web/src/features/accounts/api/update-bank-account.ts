import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** PUT /api/bank-accounts/{id}: only bank name, account number and holder are sent (the currency cannot change). */
export function updateBankAccount({ id, update }: { id: number; update: BodyOf<typeof Routes.accounts.update> }) {
  const { bankName, accountNumber, accountHolder } = update;
  return call(Routes.accounts.update, { params: { id }, body: { bankName, accountNumber, accountHolder } });
}

export function useUpdateBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBankAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts }),
  });
}
