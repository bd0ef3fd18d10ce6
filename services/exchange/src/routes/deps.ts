import type { ServiceContext } from '@puente/platform';

/** What the exchange routes share: the service, and the clock (tests move it to cross days, months and timers). */
export interface RouteDeps {
  /** Its transactions give the market a new version once committed (domain/market-version.ts). */
  ctx: ServiceContext;
  now(): Date;
}

/** The spec's message (section 5), for posting and for accepting alike. */
export const NEEDS_BOTH_ACCOUNTS = 'You need both GBP and CLP accounts to create an exchange request';
export { REQUEST_NOT_FOUND } from '../domain/who-may-take.ts';
export const MATCH_NOT_FOUND = 'Exchange match not found';
