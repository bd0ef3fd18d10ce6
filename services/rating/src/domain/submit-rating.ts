/**
 * A party of a completed match rates the other party, once: the rating is stored and announced with the rated
 * user's exact running average and count (ratingSubmitted). Callers write the event with ServiceContext.change.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope, RatingCreate } from '@puente/contracts';
import { changed, conflict, forbidden, makeEvent, type Changed } from '@puente/platform';
import { Rating } from './rating.ts';
import { otherParty, type Trade } from './trade.ts';
import { lockStandings, standingOf, type Standing } from './standing.ts';

export const NOT_THE_OTHER_PARTY = 'You can only rate the other party of this exchange';
export const NOT_COMPLETED = 'You can rate the other party once the exchange is completed';
/** The spec's word (section 5): a rater's second rating of one match. */
export const ALREADY_RATED = 'Already Rated';

/** Whether `fromUserId`, a party of the trade, may rate `toUserId` in it now; throws the refusal. */
export function mayRate(trade: Trade, fromUserId: number, toUserId: number): void {
  if (toUserId !== otherParty(trade, fromUserId)) throw forbidden(NOT_THE_OTHER_PARTY);
  if (trade.status !== 'completed') throw conflict(NOT_COMPLETED);
}

/**
 * The event announcing a stored rating, with the rated user's standing: counting it, or not while its match's
 * completion is disputed. Keyed by the rated user, as ratingStandingChanged is, so that a user's standings reach
 * consumers in the order they were computed. With no rating counting (a first rating, held) the average reads
 * '0.0000' beside count 0, which consumers holding count 0 already ignore.
 */
export function ratingSubmitted(row: Rating, trade: Trade, { count, average }: Standing): EventEnvelope {
  return makeEvent('ratingSubmitted', row.toUserId, {
    ratingId: row.id, matchId: row.matchId, ...(trade.requestId === null ? {} : { requestId: trade.requestId }),
    fromUserId: row.fromUserId, toUserId: row.toUserId, rating: row.rating, toUserAverage: average ?? '0.0000', toUserCount: count,
  });
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
  await lockStandings(tx, [toUserId]);
  if (await tx.count(Rating, { matchId: trade.matchId, fromUserId }) > 0) throw conflict(ALREADY_RATED);
  const row = tx.create(Rating, { matchId: trade.matchId, fromUserId, toUserId, rating, comment: comment ?? null });
  await tx.flush(); // the id goes into the event, and the standing counts the rating
  return changed(row, ratingSubmitted(row, trade, await standingOf(tx, toUserId)));
}
