/**
 * What the rating service knows of matches, from the exchange service's match events: who its two parties are and
 * how far it got. Only a completed match may be rated.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { qualifiedTable } from '@puente/platform';

export const TRADE_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled', 'expired'] as const;
export type TradeStatus = (typeof TRADE_STATUSES)[number];

/**
 * How far each status is along a match's life. An event never moves a trade to a lower rank, so a redelivered or
 * late event (created after completed) changes nothing: completed, cancelled and expired are final.
 */
export const STATUS_RANK: Record<TradeStatus, number> = { pending: 0, confirmed: 1, completed: 2, cancelled: 2, expired: 2 };

export const TradeSchema = defineEntity({
  name: 'Trade',
  tableName: 'trade',
  properties: {
    matchId: p.integer().primary().autoincrement(false),
    /** The match's exchange request (null for a trade recorded before it was kept, until its next event). */
    requestId: p.integer().nullable(),
    requesterId: p.integer(),
    matcherId: p.integer(),
    status: p.enum(TRADE_STATUSES),
    /**
     * The dispute opened after the match completed (the asked party's 'No, I did not receive it') while it is open:
     * the ratings of the match count towards nobody's standing until it is resolved. Null: none open.
     */
    heldByDisputeId: p.integer().nullable(),
  },
});
export class Trade extends TradeSchema.class {}
TradeSchema.setClass(Trade);

export const isParty = (t: Trade, userId: number) => t.requesterId === userId || t.matcherId === userId;
export const otherParty = (t: Trade, userId: number) => (t.requesterId === userId ? t.matcherId : t.requesterId);

/**
 * Records that the match reached `status`, in one statement: inserted when unknown, else moved forward only
 * (a status of a higher rank than the stored one). Two final statuses never replace each other.
 */
export async function advanceTrade(
  em: EntityManager, trade: { matchId: number; requestId: number; requesterId: number; matcherId: number }, status: TradeStatus,
): Promise<void> {
  const table = qualifiedTable(em, Trade);
  const rank = (column: string) => `case ${column} ${TRADE_STATUSES.map((s) => `when '${s}' then ${STATUS_RANK[s]}`).join(' ')} end`;
  await em.execute(
    `insert into ${table} as t (match_id, request_id, requester_id, matcher_id, status) values (?, ?, ?, ?, ?)
     on conflict (match_id) do update
       set status = case when ${rank('excluded.status')} > ${rank('t.status')} then excluded.status else t.status end,
           request_id = coalesce(t.request_id, excluded.request_id)`,
    [trade.matchId, trade.requestId, trade.requesterId, trade.matcherId, status],
  );
}
