import { QueryCache, QueryClient } from '@tanstack/react-query';
import { keepHeldAnswer } from './polling.ts';

/** Data sets refreshed while signed in (spec section 9): every 3 s. */
export const DATA_REFRESH_MS = 3_000;

/** Default query freshness (spec section 9): 5 minutes. */
export const DEFAULT_STALE_TIME = 5 * 60_000;

/**
 * The data-fetching defaults of spec section 9: no automatic retries, no refetch on window focus. A read refused with
 * a Retry-After keeps the answer held before it on screen (lib/polling.ts), and its polls wait as it asked.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: keepHeldAnswer }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: DEFAULT_STALE_TIME },
      mutations: { retry: false },
    },
  });
}
