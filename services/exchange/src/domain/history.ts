/** Completed exchanges as a party sees them: what they sent and received, from their own side. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { convert, moneyNumber, type TransactionHistoryItem, type User } from '@puente/contracts';
import type { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';

export const otherParty = (m: ExchangeMatch, userId: number): number => (m.requesterId === userId ? m.matcherId : m.requesterId);

/**
 * The requester sent the request's amount and received its conversion; the matcher the other way round. With
 * `others` (the other parties as identity answers them) each item names the other party, null where it could not be
 * read; without, it names nobody (a user's data download holds their own data, not their partners').
 */
export async function historyOf(
  em: EntityManager, userId: number, matches: ExchangeMatch[], others?: Map<number, Pick<User, 'firstName' | 'lastName' | 'email'>> | null,
): Promise<TransactionHistoryItem[]> {
  if (matches.length === 0) return [];
  const requests = new Map((await em.find(ExchangeRequest, { id: { $in: matches.map((m) => m.requestId) } })).map((r) => [r.id, r]));
  return matches.map((m): TransactionHistoryItem => {
    const r = requests.get(m.requestId)!;
    const isRequester = m.requesterId === userId;
    const converted = convert(r.fromCurrency, r.amount, r.exchangeRate);
    const other = others?.get(otherParty(m, userId));
    return {
      id: m.id,
      exchangeRequestId: r.id,
      exchangeMatchId: m.id,
      fromCurrency: isRequester ? r.fromCurrency : r.toCurrency,
      toCurrency: isRequester ? r.toCurrency : r.fromCurrency,
      fromAmount: moneyNumber(isRequester ? r.amount : converted),
      toAmount: moneyNumber(isRequester ? converted : r.amount),
      exchangeRate: Number(r.exchangeRate),
      status: r.status,
      completedAt: m.completedAt!.toISOString(),
      userRole: isRequester ? 'requester' : 'matcher',
      ...(others === undefined ? {} : { otherUser: other ? { firstName: other.firstName, lastName: other.lastName, email: other.email } : null }),
    };
  });
}
