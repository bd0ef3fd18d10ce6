/**
 * A party of a completed match rates the other party, once: the rating is stored and announced with the rated
 * user's exact running average and count (ratingSubmitted). Callers write the event with ServiceContext.change.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope, RatingCreate } from '@puente/contracts';
import { changed, conflict, forbidden, makeEvent, qualifiedTable, type Changed } from '@puente/platform';
import { Rating } from './rating.ts';
import { otherParty, type Trade } from './trade.ts';

export const NOT_THE_OTHER_PARTY = 'You can only rate the other party of this exchange';
export const NOT_COMPLETED = 'You can rate the other party once the exchange is completed';
/** The spec's word (section 5): a rater's second rating of one match. */
export const ALREADY_RATED = 'Already Rated';

/** The advisory-lock namespace of "ratings of one user" (first key; the user id is the second). */
const RATED_USER_LOCK = 0x52415445; // 'RATE'

export interface Standing { count: number; average: string }

/** Whether `fromUserId`, a party of the trade, may rate `toUserId` in it now; throws the refusal. */
export function mayRate(trade: Trade, fromUserId: number, toUserId: number): void {
  if (toUserId !== otherParty(trade, fromUserId)) throw forbidden(NOT_THE_OTHER_PARTY);
  if (trade.status !== 'completed') throw conflict(NOT_COMPLETED);
}

/** The event announcing a stored rating, with the rated user's standing counting it. */
export function ratingSubmitted(row: Rating, trade: Trade, { count, average }: Standing): EventEnvelope {
  return makeEvent('ratingSubmitted', row.id, {
    ratingId: row.id, matchId: row.matchId, ...(trade.requestId === null ? {} : { requestId: trade.requestId }),
    fromUserId: row.fromUserId, toUserId: row.toUserId, rating: row.rating, toUserAverage: average, toUserCount: count,
  });
}

/** The rated user's count and exact average over all their ratings (numeric, rounded half-up to 4 decimals). */
async function standing(tx: EntityManager, toUserId: number): Promise<Standing> {
  const [row] = await tx.execute<Standing[]>(
    `select count(*)::int as count, round(avg(rating), 4)::text as average from ${qualifiedTable(tx, Rating)} where to_user_id = ?`,
    [toUserId],
  );
  return { count: row!.count, average: row!.average };
}

/**
 * `fromUserId` rates the other party of the trade, in the caller's transaction. The advisory lock on the rated user
 * queues concurrent ratings of one user, so each counts the ones committed before it (no lost update in the
 * published count and average); the unique (match, rater) index is the last word on a rater's second rating.
 */
export async function submitRating(
  tx: EntityManager, trade: Trade, fromUserId: number, { toUserId, rating, comment }: Omit<RatingCreate, 'exchangeMatchId'>,
): Promise<Changed<Rating>> {
  mayRate(trade, fromUserId, toUserId);
  await tx.execute('select pg_advisory_xact_lock(?, ?)', [RATED_USER_LOCK, toUserId]);
  if (await tx.count(Rating, { matchId: trade.matchId, fromUserId }) > 0) throw conflict(ALREADY_RATED);
  const row = tx.create(Rating, { matchId: trade.matchId, fromUserId, toUserId, rating, comment: comment ?? null });
  await tx.flush(); // the id goes into the event, and the standing counts the rating
  return changed(row, ratingSubmitted(row, trade, await standing(tx, toUserId)));
}
