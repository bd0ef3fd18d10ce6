import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Paths, fillPath, type BankAccount, type BankAccountUpdate } from '@puente/contracts';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** PUT /api/bank-accounts/{id}: only bank name, account number and holder are sent (the currency cannot change). */
export function updateBankAccount({ id, update }: { id: number; update: BankAccountUpdate }): Promise<BankAccount> {
  const { bankName, accountNumber, accountHolder } = update;
  return api.put<BankAccount>(fillPath(Paths.bankAccount, { id }), { bankName, accountNumber, accountHolder });
}

export function useUpdateBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBankAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bankAccounts }),
  });
}
