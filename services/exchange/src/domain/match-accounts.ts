/**
 * The match accounts response (spec section 3): read from the accounts service and identity at the moment of the
 * call, never stored here, never logged, never on the bus. The requester sends fromCurrency and receives
 * toCurrency; the matcher the other way round. The caller's money comes from the partner's account in the
 * currency the caller receives: its holder is the name to expect (the accounts service says of every account
 * whether its holder is its owner's profile name).
 */
import { type MatchAccountsResponse, moneyNumber, Routes, type User, type VerificationLevel } from '@puente/contracts';
import { AppError, callRoute, type ServiceContext } from '@puente/platform';
import type { ExchangeMatch } from './exchange-match.ts';
import type { ExchangeRequest } from './exchange-request.ts';

export function verificationLevel(u: Pick<User, 'emailVerified' | 'phoneVerified' | 'idVerified' | 'bankVerified'>): VerificationLevel {
  const done = [u.emailVerified, u.phoneVerified, u.idVerified, u.bankVerified].filter(Boolean).length;
  return done === 4 ? 'verified' : done > 0 ? 'partial' : 'unverified';
}

export async function matchAccounts(
  ctx: ServiceContext, { match, request, callerId }: { match: ExchangeMatch; request: ExchangeRequest; callerId: number },
): Promise<MatchAccountsResponse> {
  const isRequestor = callerId === match.requesterId;
  const partnerId = isRequestor ? match.matcherId : match.requesterId;
  const receives = isRequestor ? request.toCurrency : request.fromCurrency;
  const pays = isRequestor ? request.fromCurrency : request.toCurrency;
  const [accounts, [partner]] = await Promise.all([
    callRoute(ctx, 'accounts', Routes.accounts.matchAccounts, {
      userIds: `${match.requesterId},${match.matcherId}`,
      // Details being shown for a trade in progress: locked from edits from this moment, whatever the bus's delay.
      ...(match.status === 'confirmed' ? { lockForMatch: match.id } : {}),
    }),
    callRoute(ctx, 'identity', Routes.identity.internalUsers, { ids: String(partnerId) }),
  ]);
  const mine = accounts.find((a) => a.userId === callerId && a.currency === receives);
  const theirs = accounts.find((a) => a.userId === partnerId && a.currency === pays);
  const payer = accounts.find((a) => a.userId === partnerId && a.currency === receives);
  if (!mine || !theirs || !partner) {
    // Accounts cannot be deleted while the match is pending or confirmed; after completion they may be.
    throw new AppError(409, 'account_gone', 'A bank account of this exchange no longer exists.');
  }
  const { userId: _mine, ...myAccount } = mine;
  const { userId: _theirs, ...partnerAccount } = theirs;
  return {
    exchangeDetails: {
      id: request.id, amount: moneyNumber(request.amount), exchangeRate: Number(request.exchangeRate),
      fromCurrency: request.fromCurrency, toCurrency: request.toCurrency, status: request.status,
    },
    myAccount,
    partnerAccount,
    partnerDetails: {
      firstName: partner.firstName,
      lastName: partner.lastName,
      profileImageUrl: partner.profileImageUrl,
      verificationLevel: verificationLevel(partner),
      transactionCount: partner.transactionCount,
      trustRating: partner.trustRating,
    },
    isRequestor,
    expectedPayer: payer ? { accountHolder: payer.accountHolder, holderMatchesName: payer.holderMatchesName } : null,
  };
}
