/**
 * The match accounts response (spec section 3). This service decides whether a match's bank details may be shown
 * (mayShowBankDetails: its state, its completion's age, a block between the parties); the details themselves are the
 * accounts service's copy of the parties' accounts as they were when the match was confirmed (its
 * domain/match-snapshot.ts), read at the moment of the call and never stored, logged or published here. The
 * requester sends fromCurrency and receives toCurrency; the matcher the other way round. The caller's money comes
 * from the partner's account in the currency the caller receives: its holder is the name to expect.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  BankDetailsMessages, BankDetailsRefusal, CHAT_OPEN_DAYS_AFTER_COMPLETION, moneyNumber, Routes,
  type MatchAccountsResponse, type User, type VerificationLevel,
} from '@puente/contracts';
import { AppError, callRoute, forbidden, type ServiceContext } from '@puente/platform';
import type { ExchangeMatch } from './exchange-match.ts';
import type { ExchangeRequest } from './exchange-request.ts';
import { blockBetween } from './blocks.ts';

const DAY_MS = 86_400_000;
export const NOT_YET_APPROVED = 'Bank details are shared once the requester has approved the match';

export function verificationLevel(u: Pick<User, 'emailVerified' | 'phoneVerified' | 'idVerified' | 'bankVerified'>): VerificationLevel {
  const done = [u.emailVerified, u.phoneVerified, u.idVerified, u.bankVerified].filter(Boolean).length;
  return done === 4 ? 'verified' : done > 0 ? 'partial' : 'unverified';
}

/**
 * 403 unless the match's details may be shown now: from approval until CHAT_OPEN_DAYS_AFTER_COMPLETION days after
 * completion (the chat's window, the time a trade may still need them), never once called off, and not while either
 * party blocks the other (shown again should the block be lifted within that time).
 */
export async function mayShowBankDetails(em: EntityManager, match: ExchangeMatch, now: Date): Promise<void> {
  if (match.status === 'pending') throw forbidden(NOT_YET_APPROVED);
  if (match.status === 'cancelled' || match.status === 'expired') {
    throw new AppError(403, BankDetailsRefusal.calledOff, BankDetailsMessages.calledOff);
  }
  if (await blockBetween(em, match.requesterId, match.matcherId)) {
    throw new AppError(403, BankDetailsRefusal.blocked, BankDetailsMessages.blocked);
  }
  if (match.status === 'completed'
    && (!match.completedAt || now.getTime() >= match.completedAt.getTime() + CHAT_OPEN_DAYS_AFTER_COMPLETION * DAY_MS)) {
    throw new AppError(403, BankDetailsRefusal.expired, BankDetailsMessages.expired);
  }
}

export async function matchAccounts(
  ctx: ServiceContext, { match, request, callerId }: { match: ExchangeMatch; request: ExchangeRequest; callerId: number },
): Promise<MatchAccountsResponse> {
  const isRequestor = callerId === match.requesterId;
  const partnerId = isRequestor ? match.matcherId : match.requesterId;
  const [copy, [partner]] = await Promise.all([
    callRoute(ctx, 'accounts', Routes.accounts.matchAccounts, {
      matchId: match.id, userIds: `${match.requesterId},${match.matcherId}`,
      fromCurrency: request.fromCurrency, toCurrency: request.toCurrency,
    }),
    callRoute(ctx, 'identity', Routes.identity.internalUsers, { ids: String(partnerId) }),
  ]);
  if (!copy || !partner) {
    // No copy to give: a party deleted their account (which takes the copies of their matches with it).
    throw new AppError(409, 'account_gone', 'A bank account of this exchange no longer exists.');
  }
  const [mine, theirs] = isRequestor ? [copy.requester, copy.matcher] : [copy.matcher, copy.requester];
  return {
    exchangeDetails: {
      id: request.id, amount: moneyNumber(request.amount), exchangeRate: Number(request.exchangeRate),
      fromCurrency: request.fromCurrency, toCurrency: request.toCurrency, status: request.status,
    },
    myAccount: mine.payout,
    partnerAccount: theirs.payout,
    partnerDetails: {
      firstName: partner.firstName,
      lastName: partner.lastName,
      profileImageUrl: partner.profileImageUrl,
      verificationLevel: verificationLevel(partner),
      transactionCount: partner.transactionCount,
      trustRating: partner.trustRating,
    },
    isRequestor,
    expectedPayer: theirs.payer,
  };
}
