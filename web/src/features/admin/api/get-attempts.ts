import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { Routes } from '@puente/contracts';
import { callPage, unlessSignedOut } from '../../../lib/api-client.ts';
import { queryKeys, type AttemptFilters, type Page } from '../../../lib/query-keys.ts';

/** One page of attempts, newest first, and how many match the filters in all (X-Total-Count); 401 reads as none. */
async function attemptsPage<T>(reading: Promise<{ items: T[]; total: number }>): Promise<{ items: T[]; total: number }> {
  return (await unlessSignedOut(reading)) ?? { items: [], total: 0 };
}

/** GET /api/admin/signup-attempts?email&from&to&limit&offset */
export function getSignupAttempts(filters: AttemptFilters, page: Page) {
  return attemptsPage(callPage(Routes.audit.signupAttempts, { query: { ...filters, ...page } }));
}

/** GET /api/admin/login-attempts?email&from&to&limit&offset */
export function getLoginAttempts(filters: AttemptFilters, page: Page) {
  return attemptsPage(callPage(Routes.audit.loginAttempts, { query: { ...filters, ...page } }));
}

export function signupAttemptsQueryOptions(filters: AttemptFilters, page: Page) {
  return queryOptions({ queryKey: queryKeys.signupAttempts(filters, page), queryFn: () => getSignupAttempts(filters, page), placeholderData: keepPreviousData });
}

export function loginAttemptsQueryOptions(filters: AttemptFilters, page: Page) {
  return queryOptions({ queryKey: queryKeys.loginAttempts(filters, page), queryFn: () => getLoginAttempts(filters, page), placeholderData: keepPreviousData });
}

export function useSignupAttempts(filters: AttemptFilters, page: Page) {
  return useQuery(signupAttemptsQueryOptions(filters, page));
}

export function useLoginAttempts(filters: AttemptFilters, page: Page) {
  return useQuery(loginAttemptsQueryOptions(filters, page));
}
