import type { FastifyRequest } from 'fastify';
import { ACCEPT_NEEDS_BOTH_ACCOUNTS, AcceptRefusal } from '@puente/contracts';
import { AppError, actsAsAdmin, notFound, requireUser, type ServiceContext } from '@puente/platform';
import { ExchangeMatch } from '../domain/exchange-match.ts';

/** What the exchange routes share: the service, and the clock (tests move it to cross days, months and timers). */
export interface RouteDeps {
  /** Its changes give the market and their parties new versions once committed (the version table, domain/market-version.ts). */
  ctx: ServiceContext;
  now(): Date;
}

/** The spec's message (section 5) to posting without both accounts; an accept has its own (needsBothAccountsToAccept). */
export const NEEDS_BOTH_ACCOUNTS = 'You need both GBP and CLP accounts to create an exchange request';
/** An accept without both accounts: worded for accepting, with its own code so the app links to /accounts. */
export const needsBothAccountsToAccept = () => new AppError(403, AcceptRefusal.bankAccounts, ACCEPT_NEEDS_BOTH_ACCOUNTS);
export { REQUEST_NOT_FOUND } from '../domain/who-may-take.ts';
export const MATCH_NOT_FOUND = 'Exchange match not found';

/** Who reads a match: the signed-in user, and whether they act as an admin (in production, signed in with two-factor). */
export const readerOf = (request: FastifyRequest) => ({ userId: requireUser(request).userId, admin: actsAsAdmin(request) });

/**
 * The match if the caller is a party (or, to read it, an admin with admin access); the same 404 as the match routes
 * otherwise, so an outsider learns nothing of a match's existence. The chat, its attachments and the dispute routes use it.
 */
export async function visibleMatch(request: FastifyRequest, id: number, toRead: boolean) {
  const caller = readerOf(request);
  const match = await request.em.findOne(ExchangeMatch, { id });
  const party = !!match && (match.requesterId === caller.userId || match.matcherId === caller.userId);
  if (!match || (!party && !(toRead && caller.admin))) throw notFound(MATCH_NOT_FOUND);
  return match;
}
