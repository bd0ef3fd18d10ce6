/** What the API shows of requests and matches, from their rows and the posters' projection. */
import { averageCompletionMinutes, completionRate, type ExchangeMatch as MatchView, type ExchangeRequest as RequestView, type ExchangeRequestSummary, type ExchangeRequestUser, type MatchStep, moneyNumber, type ReceiptQuestion } from '@puente/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { Trader } from './traders.ts';
import { requirementsOf } from './who-may-take.ts';
import { disputeSummary, disputesOf } from './disputes.ts';

type RequestFields = Pick<ExchangeRequest, 'id' | 'userId' | 'fromCurrency' | 'toCurrency' | 'amount' | 'exchangeRate' | 'status' | 'createdAt'>;
type TraderFields = Pick<Trader,
  'firstName' | 'lastName' | 'profileImageUrl' | 'trustRating' | 'transactionCount' | 'confirmedCount' | 'timedCompletionCount'
  | 'completionSecondsTotal' | 'memberSince'>;

export function requestSummary(r: RequestFields): ExchangeRequestSummary {
  return {
    id: r.id,
    userId: r.userId,
    fromCurrency: r.fromCurrency,
    toCurrency: r.toCurrency,
    amount: moneyNumber(r.amount),
    exchangeRate: Number(r.exchangeRate),
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The poster as a card shows them; a user the projection has not heard of yet shows blank. */
export function posterView(t: TraderFields | null | undefined): ExchangeRequestUser {
  return {
    firstName: t?.firstName ?? '',
    lastName: t?.lastName ?? '',
    profileImageUrl: t?.profileImageUrl ?? null,
    trustRating: t?.trustRating === null || t?.trustRating === undefined ? null : Number(t.trustRating),
    transactionCount: t?.transactionCount ?? 0,
    completionRate: t ? completionRate(t.transactionCount, t.confirmedCount) : null,
    averageCompletionMinutes: t ? averageCompletionMinutes(t.completionSecondsTotal, t.timedCompletionCount) : null,
    memberSince: t?.memberSince?.toISOString() ?? null,
  };
}

export const fullName = (t: Pick<Trader, 'firstName' | 'lastName'> | null | undefined): string =>
  [t?.firstName, t?.lastName].filter(Boolean).join(' ');

async function tradersById(em: EntityManager, userIds: number[]): Promise<Map<number, Trader>> {
  const traders = userIds.length ? await em.find(Trader, { userId: { $in: [...new Set(userIds)] } }) : [];
  return new Map(traders.map((t) => [t.userId, t]));
}

export async function requestViews(em: EntityManager, requests: ExchangeRequest[]): Promise<RequestView[]> {
  const traders = await tradersById(em, requests.map((r) => r.userId));
  return requests.map((r) => ({ ...requestSummary(r), ...requirementsOf(r), user: posterView(traders.get(r.userId)) }));
}

export async function requestView(em: EntityManager, request: ExchangeRequest): Promise<RequestView> {
  const [view] = await requestViews(em, [request]);
  return view!;
}

/** The parties who marked their payment sent, first first, with when. */
function payments(m: ExchangeMatch): MatchStep[] {
  const marks: [number, Date][] = [];
  if (m.requesterPaidAt) marks.push([m.requesterId, m.requesterPaidAt]);
  if (m.matcherPaidAt) marks.push([m.matcherId, m.matcherPaidAt]);
  return marks.sort((a, b) => a[1].getTime() - b[1].getTime()).map(([userId, at]) => ({ userId, at: at.toISOString() }));
}

/** Each party's 'I received', first first; automatic for the asked party's when the window lapsed. */
function receipts(m: ExchangeMatch): (MatchStep & { automatic: boolean })[] {
  const marks: [number, Date][] = [];
  if (m.requesterReceivedAt) marks.push([m.requesterId, m.requesterReceivedAt]);
  if (m.matcherReceivedAt) marks.push([m.matcherId, m.matcherReceivedAt]);
  return marks.sort((a, b) => a[1].getTime() - b[1].getTime()).map(([userId, at]) => ({
    userId, at: at.toISOString(), automatic: m.receiptAnswer === 'lapsed' && m.receiptAskedId === userId,
  }));
}

function receiptQuestion(m: ExchangeMatch): ReceiptQuestion | null {
  if (!m.receiptAskedId || !m.receiptAskedAt || !m.receiptDueAt) return null;
  return {
    askedId: m.receiptAskedId, askedAt: m.receiptAskedAt.toISOString(), dueAt: m.receiptDueAt.toISOString(),
    answer: m.receiptAnswer ?? null, answeredAt: m.receiptAnsweredAt?.toISOString() ?? null,
  };
}

export async function matchViews(em: EntityManager, matches: ExchangeMatch[]): Promise<MatchView[]> {
  const requests = matches.length ? await em.find(ExchangeRequest, { id: { $in: [...new Set(matches.map((m) => m.requestId))] } }) : [];
  const byId = new Map(requests.map((r) => [r.id, r]));
  const traders = await tradersById(em, matches.map((m) => m.matcherId));
  const disputes = await disputesOf(em, matches.map((m) => m.id));
  return matches.map((m) => ({
    id: m.id,
    exchangeRequestId: m.requestId,
    matchedById: m.matcherId,
    matcherName: fullName(traders.get(m.matcherId)),
    status: m.status,
    createdAt: m.createdAt.toISOString(),
    exchangeRequest: requestSummary(byId.get(m.requestId)!),
    paidByIds: payments(m).map((p) => p.userId),
    ...(disputes.has(m.id) ? { dispute: disputeSummary(disputes.get(m.id)!) } : {}),
    confirmedAt: m.confirmedAt?.toISOString() ?? null,
    payments: payments(m),
    receipts: receipts(m),
    completedAt: m.completedAt?.toISOString() ?? null,
    completedById: m.completedById ?? null,
    receiptQuestion: receiptQuestion(m),
  }));
}

export async function matchView(em: EntityManager, match: ExchangeMatch): Promise<MatchView> {
  const [view] = await matchViews(em, [match]);
  return view!;
}
