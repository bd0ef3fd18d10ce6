/**
 * Disputes: a party of a confirmed match opens one (a reason and a statement); while it is open the match is frozen
 * (no completion, no 'I have paid', no reminders) and the chat stays open. An admin resolves it: the match completed
 * as a party would complete it, or cancelled with its request; perhaps a warning or a trading suspension for one
 * party (domain/sanctions.ts). Opening and resolving are dispute-transitions.ts, made under the trade's locks
 * (request, then match) by trade.ts, with their events and chat messages in the same transaction.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import {
  DisputeOutcome, DisputeReason, DisputeRefusal, DisputeStatus, SanctionKind,
  type Dispute as DisputeView, type DisputeOutcomes, type DisputeParty, type DisputePartyHistory,
  type MatchDisputeSummary, type PersonalDataDispute,
} from '@puente/contracts';
import { conflict } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { TradingSanction } from './sanctions.ts';
import { Trader } from './traders.ts';

export const DisputeSchema = defineEntity({
  name: 'Dispute',
  tableName: 'dispute',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** One dispute per match: only a confirmed match is disputed, and resolving it ends the match. */
    matchId: p.integer().unique('dispute_match_id_unique'),
    requestId: p.integer(),
    requesterId: p.integer(),
    matcherId: p.integer(),
    openedById: p.integer(),
    reason: p.enum(DisputeReason.options),
    statement: p.text(),
    status: p.enum(DisputeStatus.options),
    openedAt: p.datetime(),
    outcome: p.enum(DisputeOutcome.options).nullable(),
    adminNote: p.text().nullable(),
    resolvedById: p.integer().nullable(),
    resolvedAt: p.datetime().nullable(),
    /** The sanction given with the resolution, if any (its row is in trading_sanction). */
    sanctionUserId: p.integer().nullable(),
    sanctionKind: p.enum(SanctionKind.options).nullable(),
  },
  indexes: [
    { name: 'dispute_status_opened_at_index', properties: ['status', 'openedAt'] },
    { name: 'dispute_requester_id_index', properties: ['requesterId'] },
    { name: 'dispute_matcher_id_index', properties: ['matcherId'] },
  ],
});
export class Dispute extends DisputeSchema.class {}
DisputeSchema.setClass(Dispute);

export const MATCH_DISPUTED = 'This exchange is under dispute: it is on hold until an admin resolves it';
export const DISPUTE_EXISTS = 'A dispute is already open for this match';
export const DISPUTE_RESOLVED = 'This dispute is already resolved';
export const DISPUTE_NOT_FOUND = 'Dispute not found';

/** 409 `match_disputed` for a change to a match whose dispute is open. */
export async function assertNotDisputed(em: EntityManager, match: Pick<ExchangeMatch, 'id'>): Promise<void> {
  if (await em.count(Dispute, { matchId: match.id, status: 'open' })) throw conflict(MATCH_DISPUTED, DisputeRefusal.frozen);
}

export function disputeView(d: Dispute): DisputeView {
  return {
    id: d.id, matchId: d.matchId, exchangeRequestId: d.requestId, openedById: d.openedById, reason: d.reason,
    statement: d.statement, status: d.status, openedAt: d.openedAt.toISOString(), outcome: d.outcome ?? null,
    adminNote: d.adminNote ?? null,
    sanction: d.sanctionUserId && d.sanctionKind ? { userId: d.sanctionUserId, kind: d.sanctionKind } : null,
    resolvedAt: d.resolvedAt?.toISOString() ?? null,
  };
}

export const disputeSummary = (d: Dispute): MatchDisputeSummary => ({
  id: d.id, reason: d.reason, status: d.status, openedById: d.openedById, openedAt: d.openedAt.toISOString(), outcome: d.outcome ?? null,
});

/** The disputes of these matches, by match id (for the match views). */
export async function disputesOf(em: EntityManager, matchIds: number[]): Promise<Map<number, Dispute>> {
  const found = matchIds.length ? await em.find(Dispute, { matchId: { $in: [...new Set(matchIds)] } }) : [];
  return new Map(found.map((d) => [d.matchId, d]));
}

/** The match of a request an admin cancelled resolving its dispute (the request ended with it: no other match follows). */
export async function matchCancelledByDispute(em: EntityManager, requestId: number): Promise<ExchangeMatch | null> {
  const dispute = await em.findOne(Dispute, { requestId, outcome: 'cancelled' }, { fields: ['matchId'] });
  return dispute ? em.findOne(ExchangeMatch, { id: dispute.matchId }) : null;
}

/** Parties of disputes as the queue names them (the projection of users; blank for one it has not heard of). */
export async function partyNames(em: EntityManager, userIds: number[]): Promise<Map<number, DisputeParty>> {
  const traders = userIds.length ? await em.find(Trader, { userId: { $in: [...new Set(userIds)] } }) : [];
  const byId = new Map(traders.map((t) => [t.userId, t]));
  return new Map([...new Set(userIds)].map((userId) => {
    const t = byId.get(userId);
    return [userId, { userId, firstName: t?.firstName ?? '', lastName: t?.lastName ?? '' }];
  }));
}

/** What an admin weighs of a party: their trade record, their other disputes, warnings and a suspension in force. */
export async function partyHistory(em: EntityManager, userId: number, exceptDisputeId: number): Promise<DisputePartyHistory> {
  const trader = await em.findOne(Trader, { userId });
  const asParty = { $or: [{ requesterId: userId }, { matcherId: userId }] };
  const count = (status: ExchangeMatch['status']) => em.count(ExchangeMatch, { ...asParty, status });
  // A completion an admin cancelled after it (the asked party's no upheld) counts as cancelled, as the dispute decided.
  const undone = (await em.find(Dispute, { ...asParty, outcome: 'cancelled' }, { fields: ['matchId'] })).map((d) => d.matchId);
  const undoneCompletions = undone.length ? await em.count(ExchangeMatch, { id: { $in: undone }, status: 'completed' }) : 0;
  const [completed, cancelled, matchesExpired] = await Promise.all([count('completed'), count('cancelled'), count('expired')]);
  const matchesCompleted = completed - undoneCompletions;
  const matchesCancelled = cancelled + undoneCompletions;
  const others = await em.find(Dispute, { ...asParty, id: { $ne: exceptDisputeId } }, { orderBy: { id: 'desc' } });
  const sanctions = await em.find(TradingSanction, { userId });
  return {
    userId, firstName: trader?.firstName ?? '', lastName: trader?.lastName ?? '',
    profileImageUrl: trader?.profileImageUrl ?? null, memberSince: trader?.memberSince?.toISOString() ?? null,
    trustRating: trader?.trustRating === null || trader?.trustRating === undefined ? null : Number(trader.trustRating),
    ratingCount: trader?.ratingCount ?? 0, idVerified: trader?.idVerified ?? false,
    matchesCompleted, matchesCancelled, matchesExpired,
    disputes: others.map((d) => ({
      id: d.id, matchId: d.matchId, reason: d.reason, status: d.status, outcome: d.outcome ?? null,
      openedByThem: d.openedById === userId, sanctionOnThem: d.sanctionUserId === userId ? d.sanctionKind ?? null : null,
      openedAt: d.openedAt.toISOString(),
    })),
    warnings: sanctions.filter((s) => s.kind === 'warning').length,
    suspended: sanctions.some((s) => s.kind === 'suspension' && !s.liftedAt),
  };
}

/** The counts a profile shows: how the user's resolved disputes ended, and the sanctions they received. */
export async function disputeOutcomes(em: EntityManager, userId: number): Promise<DisputeOutcomes> {
  const resolved = { status: 'resolved' as const, $or: [{ requesterId: userId }, { matcherId: userId }] };
  const [completed, cancelled, warnings, suspensions] = await Promise.all([
    em.count(Dispute, { ...resolved, outcome: 'completed' }),
    em.count(Dispute, { ...resolved, outcome: 'cancelled' }),
    em.count(TradingSanction, { userId, kind: 'warning' }),
    em.count(TradingSanction, { userId, kind: 'suspension' }),
  ]);
  return { completed, cancelled, warnings, suspensions };
}

/** The disputes of the user's matches for their data download: their own statements only, and the sanctions on them. */
export async function disputesInPersonalData(em: EntityManager, userId: number): Promise<PersonalDataDispute[]> {
  const disputes = await em.find(Dispute, { $or: [{ requesterId: userId }, { matcherId: userId }] }, { orderBy: { id: 'asc' } });
  const sanctions = new Map((await em.find(TradingSanction, { userId })).map((s) => [s.disputeId, s]));
  return disputes.map((d) => {
    const sanction = sanctions.get(d.id);
    return {
      id: d.id, matchId: d.matchId, exchangeRequestId: d.requestId, openedById: d.openedById, reason: d.reason,
      statement: d.openedById === userId ? d.statement : null, status: d.status, openedAt: d.openedAt.toISOString(),
      outcome: d.outcome ?? null, adminNote: d.adminNote ?? null, resolvedAt: d.resolvedAt?.toISOString() ?? null,
      sanctionOnUser: sanction ? { kind: sanction.kind, liftedAt: sanction.liftedAt?.toISOString() ?? null } : null,
    };
  });
}

/**
 * A deleted user's part of their disputes, in the caller's transaction: the statements they wrote are blanked (the
 * column is required) and the sanctions given them go, as they trade no more. Each dispute stays with its parties and
 * outcome, which the other party's profile counts and history are made of; sanctions on the other party stay too.
 */
export async function eraseFromDisputes(tx: EntityManager, userId: number): Promise<void> {
  await tx.nativeUpdate(Dispute, { openedById: userId }, { statement: '' });
  await tx.nativeUpdate(Dispute, { sanctionUserId: userId }, { sanctionUserId: null, sanctionKind: null });
  await tx.nativeDelete(TradingSanction, { userId });
}
