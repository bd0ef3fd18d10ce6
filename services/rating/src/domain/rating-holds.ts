/**
 * "A rating counts towards scores at once, except while a 'No' dispute is open on its match": when the asked party
 * answers no to the receipt question of a completed match (disputeOpened, afterCompletion), the match's ratings
 * leave their rated users' standings; when an admin resolves that dispute they count again. Each standing that
 * moves is announced (ratingStandingChanged), in the consumer's transaction.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope, EventPayload } from '@puente/contracts';
import { makeEvent, qualifiedTable } from '@puente/platform';
import { Rating } from './rating.ts';
import { advanceTrade, Trade } from './trade.ts';
import { lockStandings, standingOf } from './standing.ts';

type MatchParties = { matchId: number; requestId: number; requesterId: number; matcherId: number };

/** The standings of the users rated in the match, announced (after its hold started or ended). */
async function standingsChanged(tx: EntityManager, matchId: number): Promise<EventEnvelope[]> {
  const rated = await tx.find(Rating, { matchId }, { fields: ['toUserId'], orderBy: { toUserId: 'asc' } });
  const events: EventEnvelope[] = [];
  for (const userId of new Set(rated.map((r) => r.toUserId))) {
    const { count, average } = await standingOf(tx, userId);
    events.push(makeEvent('ratingStandingChanged', userId, { userId, average, count }));
  }
  return events;
}

/**
 * Sets (hold) or clears (release) the match's hold in one statement, under the locks of both parties' standings
 * (a rating of either given at the same time queues behind it, and counts as the hold says). True when it changed:
 * a second opening or a resolution of another dispute changes nothing.
 */
async function setHold(tx: EntityManager, m: MatchParties, disputeId: number, hold: boolean): Promise<boolean> {
  await lockStandings(tx, [m.requesterId, m.matcherId]);
  const table = qualifiedTable(tx, Trade);
  const rows = await tx.execute<{ match_id: number }[]>(
    hold
      ? `update ${table} set held_by_dispute_id = ? where match_id = ? and held_by_dispute_id is null returning match_id`
      : `update ${table} set held_by_dispute_id = null where match_id = ? and held_by_dispute_id = ? returning match_id`,
    hold ? [disputeId, m.matchId] : [m.matchId, disputeId],
  );
  return rows.length > 0;
}

/** A dispute opened on the completed match: its ratings, given or to come, stop counting until it is resolved. */
export async function holdRatings(tx: EntityManager, m: EventPayload<'disputeOpened'>): Promise<EventEnvelope[]> {
  if (m.afterCompletion !== true) return []; // a dispute before completion: nobody could rate yet
  await advanceTrade(tx, m, 'completed'); // the match may be known here only by this event yet
  return await setHold(tx, m, m.disputeId, true) ? standingsChanged(tx, m.matchId) : [];
}

/** The dispute holding the match's ratings was resolved (whatever its outcome): they count again. */
export async function releaseRatings(tx: EntityManager, m: EventPayload<'disputeResolved'>): Promise<EventEnvelope[]> {
  return await setHold(tx, m, m.disputeId, false) ? standingsChanged(tx, m.matchId) : [];
}
