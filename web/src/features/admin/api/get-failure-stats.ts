import { queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { read } from '../../../lib/api-client.ts';
import { queryKeys, type AttemptFilters } from '../../../lib/query-keys.ts';

/** GET /api/admin/signup-failures: failed sign-ups grouped by step and reason, with the page's filters. */
export async function getSignupFailures(filters: AttemptFilters) {
  return (await read(Routes.audit.signupFailures, { query: { ...filters } })) ?? [];
}

/** GET /api/admin/login-failures: failed logins grouped by method and reason. */
export async function getLoginFailures(filters: AttemptFilters) {
  return (await read(Routes.audit.loginFailures, { query: { ...filters } })) ?? [];
}

export function signupFailuresQueryOptions(filters: AttemptFilters) {
  return queryOptions({ queryKey: queryKeys.signupFailures(filters), queryFn: () => getSignupFailures(filters) });
}

export function loginFailuresQueryOptions(filters: AttemptFilters) {
  return queryOptions({ queryKey: queryKeys.loginFailures(filters), queryFn: () => getLoginFailures(filters) });
}

export function useSignupFailures(filters: AttemptFilters) {
  return useQuery(signupFailuresQueryOptions(filters));
}

export function useLoginFailures(filters: AttemptFilters) {
  return useQuery(loginFailuresQueryOptions(filters));
}
