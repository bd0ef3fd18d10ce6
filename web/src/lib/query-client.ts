import { QueryClient } from '@tanstack/react-query';

/** Data sets refreshed while signed in (spec section 9): every 3 s. */
export const DATA_REFRESH_MS = 3_000;

/** Default query freshness (spec section 9): 5 minutes. */
export const DEFAULT_STALE_TIME = 5 * 60_000;

/** The data-fetching defaults of spec section 9: no automatic retries, no refetch on window focus. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: DEFAULT_STALE_TIME },
      mutations: { retry: false },
    },
  });
}
