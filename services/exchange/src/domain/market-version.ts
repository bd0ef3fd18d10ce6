/**
 * The versions behind GET /api/exchange-requests, the list every signed-in tab polls every 3 s (platform
 * http/versions.ts). Its answer depends on every open request, the caller's own trades and the posters' cards, so
 * the market's version changes after any committed change to requests, matches or traders; the caller's key makes
 * the ETag personal (two users never share one, even in one browser).
 */
import type { ServiceContext } from '@puente/platform';

export const MARKET_VERSION = 'market';
export const callerVersion = (userId: number) => `caller:${userId}`;

/** The service context whose transactions give the market a new version once they commit (routes, timers). */
export function changingMarket<C extends Pick<ServiceContext, 'transaction' | 'versions'>>(ctx: C): C {
  return {
    ...ctx,
    async transaction(fn) {
      const result = await ctx.transaction(fn);
      await ctx.versions.bump([MARKET_VERSION]);
      return result;
    },
  };
}
