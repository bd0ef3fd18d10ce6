/**
 * A user's standing: how many ratings they received count, and their exact average. Every rating counts at once,
 * except the ratings of a match whose completion is disputed (trade.heldByDisputeId): those are kept, and count
 * again once the dispute is resolved (domain/rating-holds.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { qualifiedTable } from '@puente/platform';
import { Rating } from './rating.ts';
import { Trade } from './trade.ts';

/** average: null when no rating counts. */
export interface Standing { count: number; average: string | null }

/** The advisory-lock namespace of "ratings of one user" (first key; the user id is the second). */
const RATED_USER_LOCK = 0x52415445; // 'RATE'

/**
 * Queues the caller's transaction behind any other changing these users' standings (a rating, a hold, a release),
 * so each computes its standing over what the ones before it committed. Locked in id order: two holds never wait
 * on each other in a cycle.
 */
export async function lockStandings(tx: EntityManager, userIds: readonly number[]): Promise<void> {
  for (const userId of [...new Set(userIds)].sort((a, b) => a - b)) {
    await tx.execute('select pg_advisory_xact_lock(?, ?)', [RATED_USER_LOCK, userId]);
  }
}

/** The user's count and exact average over the ratings that count (numeric, rounded half-up to 4 decimals). */
export async function standingOf(tx: EntityManager, toUserId: number): Promise<Standing> {
  const [row] = await tx.execute<Standing[]>(
    `select count(*)::int as count, round(avg(r.rating), 4)::text as average from ${qualifiedTable(tx, Rating)} r
     where r.to_user_id = ? and not exists (
       select 1 from ${qualifiedTable(tx, Trade)} t where t.match_id = r.match_id and t.held_by_dispute_id is not null)`,
    [toUserId],
  );
  return { count: row!.count, average: row!.average ?? null };
}
