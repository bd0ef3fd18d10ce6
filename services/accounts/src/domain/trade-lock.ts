import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { conflict } from '@puente/platform';

/**
 * The matches in progress, as the exchange service announces them: while a match is pending or confirmed its two
 * parties' bank accounts are locked, so the account a payment is being sent to cannot be changed under the payer.
 * One row per match; once ended (completed, cancelled, expired) it stays inactive for good.
 */
export const TradeLockSchema = defineEntity({
  name: 'TradeLock',
  tableName: 'trade_lock',
  properties: {
    matchId: p.integer().primary().autoincrement(false),
    requesterId: p.integer().index(),
    matcherId: p.integer().index(),
    active: p.boolean(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export class TradeLock extends TradeLockSchema.class {}
TradeLockSchema.setClass(TradeLock);

interface MatchParties { matchId: number; requesterId: number; matcherId: number }

/**
 * A match is pending or confirmed: lock it, unless its row exists already. An existing row is either active (a
 * redelivery, or confirmed after created) or ended (the end arrived first), and an ended match never reopens.
 */
export async function lockForMatch(em: EntityManager, { matchId, requesterId, matcherId }: MatchParties): Promise<void> {
  await em.createQueryBuilder(TradeLock)
    .insert({ matchId, requesterId, matcherId, active: true, updatedAt: new Date() })
    .onConflict('matchId').ignore().execute();
}

/** A match ended: unlock it, recording it as ended even when its create has not arrived yet. */
export async function releaseForMatch(em: EntityManager, { matchId, requesterId, matcherId }: MatchParties): Promise<void> {
  await em.createQueryBuilder(TradeLock)
    .insert({ matchId, requesterId, matcherId, active: false, updatedAt: new Date() })
    .onConflict('matchId').merge(['active', 'updatedAt']).execute();
}

export const accountInExchange = () => conflict('This account is part of an exchange in progress', 'account_in_exchange');

/** 409 while `userId` is a party of a match in progress (requester or matcher). */
export async function assertNotInExchange(em: EntityManager, userId: number): Promise<void> {
  const locks = await em.count(TradeLock, { active: true, $or: [{ requesterId: userId }, { matcherId: userId }] });
  if (locks > 0) throw accountInExchange();
}
