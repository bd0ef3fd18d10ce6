import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Routes, type Message } from '@puente/contracts';
import { call, type BodyOf } from '../../../lib/api-client.ts';
import { forgetSession } from '../../../lib/auth.ts';

/** POST /api/users/me/delete: the account's deletion, with the password re-entered; every session ends. */
export function deleteAccount(body: BodyOf<typeof Routes.identity.deleteAccount>) {
  return call(Routes.identity.deleteAccount, { body });
}

/**
 * `onDeleted` runs before the session is forgotten: the page it leaves is one only a signed-in user has, and it must
 * still be there to go elsewhere.
 */
export function useDeleteAccount({ onDeleted }: { onDeleted: (answer: Message) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: (answer) => {
      onDeleted(answer);
      forgetSession(queryClient);
    },
  });
}
