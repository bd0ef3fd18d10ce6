import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { Paths, type LoginAttemptList, type SignupAttemptList } from '@puente/contracts';
import { ApiError, request } from '../../../lib/api-client.ts';
import { queryKeys, type AttemptFilters } from '../../../lib/query-keys.ts';

export interface Page {
  limit: number;
  offset: number;
}

export interface AttemptsPage<T> {
  items: T;
  /** All attempts matching the filters (X-Total-Count). */
  total: number;
}

async function getAttempts<T extends unknown[]>(path: string, filters: AttemptFilters, page: Page): Promise<AttemptsPage<T>> {
  try {
    const { data, headers } = await request<T>('GET', path, { query: { ...filters, ...page } });
    return { items: data, total: Number(headers.get('x-total-count') ?? data.length) };
  } catch (error) {
    // A data read treats 401 as an empty result.
    if (error instanceof ApiError && error.status === 401) return { items: [] as unknown as T, total: 0 };
    throw error;
  }
}

/** GET /api/admin/signup-attempts?email&from&to&limit&offset, newest first. */
export function getSignupAttempts(filters: AttemptFilters, page: Page) {
  return getAttempts<SignupAttemptList>(Paths.signupAttempts, filters, page);
}

/** GET /api/admin/login-attempts?email&from&to&limit&offset, newest first. */
export function getLoginAttempts(filters: AttemptFilters, page: Page) {
  return getAttempts<LoginAttemptList>(Paths.loginAttempts, filters, page);
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
