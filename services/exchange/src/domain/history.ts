/**
 * The transaction history as a party sees it: each completed exchange with what they sent and received, from their
 * own side, and each request they marked done ("completed requests move to history", spec section 4).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { convert, moneyNumber, type PaginationQuery, type TransactionHistoryItem, type User } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';

type OtherUsers = Map<number, Pick<User, 'firstName' | 'lastName' | 'email'>>;

export const otherParty = (m: ExchangeMatch, userId: number): number => (m.requesterId === userId ? m.matcherId : m.requesterId);

const partyTo = (userId: number) => ({ status: 'completed' as const, $or: [{ requesterId: userId }, { matcherId: userId }] });

/**
 * The requester sent the request's amount and received its conversion; the matcher the other way round. With
 * `others` (the other parties as identity answers them) the item names the other party, null where it could not be
 * read; without, it names nobody (a user's data download holds their own data, not their partners').
 */
function matchItem(m: ExchangeMatch, r: ExchangeRequest, userId: number, others?: OtherUsers | null): TransactionHistoryItem {
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
}

/** A request its owner marked done: their own terms, no match and nobody on the other side. */
function markedDoneItem(r: ExchangeRequest): TransactionHistoryItem {
  return {
    id: r.id,
    exchangeRequestId: r.id,
    exchangeMatchId: null,
    fromCurrency: r.fromCurrency,
    toCurrency: r.toCurrency,
    fromAmount: moneyNumber(r.amount),
    toAmount: moneyNumber(convert(r.fromCurrency, r.amount, r.exchangeRate)),
    exchangeRate: Number(r.exchangeRate),
    status: r.status,
    completedAt: r.markedDoneAt!.toISOString(),
    userRole: 'requester',
  };
}

/** The given completed matches from the user's side (their data download). */
export async function historyOf(em: EntityManager, userId: number, matches: ExchangeMatch[], others?: OtherUsers | null): Promise<TransactionHistoryItem[]> {
  if (matches.length === 0) return [];
  const requests = new Map((await em.find(ExchangeRequest, { id: { $in: matches.map((m) => m.requestId) } })).map((r) => [r.id, r]));
  return matches.map((m) => matchItem(m, requests.get(m.requestId)!, userId, others));
}

/**
 * One page of the user's history, newest first (a match by its completion, a request by its marking done), and how
 * many there are in all. `othersOf` names the other parties of the page's matches (null when it cannot).
 */
export async function historyPage(
  em: EntityManager, userId: number, { limit, offset }: PaginationQuery, othersOf: (ids: number[]) => Promise<OtherUsers | null>,
): Promise<{ items: TransactionHistoryItem[]; total: number }> {
  const rows = await em.execute<{ kind: 'match' | 'request'; id: number }[]>(
    `select 'match' as kind, id, completed_at as at from ${qualifiedTable(em, ExchangeMatch)}
       where status = 'completed' and (requester_id = ? or matcher_id = ?)
     union all
     select 'request' as kind, id, marked_done_at as at from ${qualifiedTable(em, ExchangeRequest)}
       where user_id = ? and marked_done_at is not null
     order by at desc, kind, id desc limit ? offset ?`,
    [userId, userId, userId, limit, offset]);
  const total = await em.count(ExchangeMatch, partyTo(userId)) + await em.count(ExchangeRequest, { userId, markedDoneAt: { $ne: null } });
  if (rows.length === 0) return { items: [], total };

  const idsOf = (kind: 'match' | 'request') => rows.filter((row) => row.kind === kind).map((row) => Number(row.id));
  const matches = new Map((await em.find(ExchangeMatch, { id: { $in: idsOf('match') } })).map((m) => [m.id, m]));
  const requestIds = [...idsOf('request'), ...[...matches.values()].map((m) => m.requestId)];
  const requests = new Map((await em.find(ExchangeRequest, { id: { $in: requestIds } })).map((r) => [r.id, r]));
  const others = matches.size === 0 ? null : await othersOf([...new Set([...matches.values()].map((m) => otherParty(m, userId)))]);
  const items = rows.map((row) => {
    if (row.kind === 'request') return markedDoneItem(requests.get(Number(row.id))!);
    const m = matches.get(Number(row.id))!;
    return matchItem(m, requests.get(m.requestId)!, userId, others);
  });
  return { items, total };
}
