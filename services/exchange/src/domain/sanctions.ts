/**
 * Sanctions an admin gives a party when resolving a dispute: a warning (recorded, counted on their profile) or a
 * trading suspension (no posting, no accepting) until an admin lifts it. Trades already under way go on.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { DisputeRefusal, SanctionKind } from '@puente/contracts';
import { AppError } from '@puente/platform';

export const TradingSanctionSchema = defineEntity({
  name: 'TradingSanction',
  tableName: 'trading_sanction',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    kind: p.enum(SanctionKind.options),
    /** The dispute whose resolution gave it. */
    disputeId: p.integer(),
    createdById: p.integer(),
    createdAt: p.datetime(),
    /** When an admin lifted a suspension (a warning is never lifted). */
    liftedAt: p.datetime().nullable(),
    liftedById: p.integer().nullable(),
  },
  indexes: [{ name: 'trading_sanction_user_id_index', properties: ['userId'] }],
});
export class TradingSanction extends TradingSanctionSchema.class {}
TradingSanctionSchema.setClass(TradingSanction);

export const TRADING_SUSPENDED = 'Your trading is suspended after a dispute: you cannot post or accept exchange requests until an admin lifts the suspension';

/** A suspension still in force. */
export const activeSuspension = (em: EntityManager, userId: number) =>
  em.findOne(TradingSanction, { userId, kind: 'suspension', liftedAt: null });

/** 403 `trading_suspended` for a suspended user posting or accepting. */
export async function assertMayTrade(em: EntityManager, userId: number): Promise<void> {
  if (await activeSuspension(em, userId)) throw new AppError(403, DisputeRefusal.suspended, TRADING_SUSPENDED);
}
