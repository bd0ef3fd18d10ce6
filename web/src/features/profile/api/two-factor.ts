import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { call, read, type BodyOf } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The status's query key: its route's path, as every key in lib/query-keys.ts starts. */
export const twoFactorKey = [Routes.identity.twoFactorStatus.path] as const;

/** GET /api/auth/two-factor: whether it is on, and the recovery codes left. */
export function twoFactorQueryOptions() {
  return queryOptions({ queryKey: twoFactorKey, queryFn: () => read(Routes.identity.twoFactorStatus) });
}

export function useTwoFactorStatus() {
  return useQuery(twoFactorQueryOptions());
}

/** POST /api/auth/two-factor/setup: a new secret and its otpauth URI (not on until confirmed). */
export function useStartTwoFactorSetup() {
  return useMutation({ mutationFn: () => call(Routes.identity.twoFactorSetup) });
}

type Confirm = BodyOf<typeof Routes.identity.twoFactorEnable>;

/**
 * The status, and the sign-in methods (the proof a Google-only account gives follows two-factor sign-in), read again
 * without being waited for: the form's own callbacks run first (the status read would take the form away).
 */
const readAgain = (queryClient: QueryClient) => {
  void queryClient.invalidateQueries({ queryKey: twoFactorKey });
  void queryClient.invalidateQueries({ queryKey: queryKeys.signInMethods });
};

/** POST /api/auth/two-factor/enable: the recovery codes, shown once; the status is read again. */
export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Confirm) => call(Routes.identity.twoFactorEnable, { body }),
    onSettled: () => readAgain(queryClient),
  });
}

/** POST /api/auth/two-factor/recovery-codes: new recovery codes, shown once (the old ones stop working); the count is read again. */
export function useNewRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof Routes.identity.twoFactorRecoveryCodes>) => call(Routes.identity.twoFactorRecoveryCodes, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

/** POST /api/auth/two-factor/disable; the status is read again. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Confirm) => call(Routes.identity.twoFactorDisable, { body }),
    onSettled: () => readAgain(queryClient),
  });
}
