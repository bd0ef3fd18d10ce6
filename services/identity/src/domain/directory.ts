/**
 * The user directory: a page of users (not deleted, by id) filtered by name and directory tier in SQL, and each one's
 * dispute outcomes from the resolved disputes identity keeps from the exchange service's events (one row per dispute,
 * so a redelivered event or a backfilled row changes nothing), counted for the page in one statement.
 */
import { defineEntity, p, raw, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { DisputeOutcome, SanctionKind, type DirectoryQuery, type DisputeOutcomes, type TrustLevel } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { NOT_DELETED, User } from './user.ts';

export const ResolvedDisputeSchema = defineEntity({
  name: 'ResolvedDispute',
  tableName: 'resolved_dispute',
  properties: {
    disputeId: p.integer().primary().autoincrement(false),
    requesterId: p.integer().index(),
    matcherId: p.integer().index(),
    outcome: p.enum(DisputeOutcome.options),
    sanctionUserId: p.integer().nullable(),
    sanctionKind: p.enum(SanctionKind.options).nullable(),
  },
});
export class ResolvedDispute extends ResolvedDisputeSchema.class {}
ResolvedDisputeSchema.setClass(ResolvedDispute);

export interface DisputeResolution {
  disputeId: number;
  requesterId: number;
  matcherId: number;
  outcome: DisputeOutcome;
  sanction: { userId: number; kind: SanctionKind } | null;
}

/** Keeps resolved disputes (from events or the backfill); one already kept is left as it is. */
export async function keepResolvedDisputes(em: EntityManager, resolutions: DisputeResolution[]): Promise<void> {
  if (resolutions.length === 0) return;
  await em.execute(
    `insert into ${qualifiedTable(em, ResolvedDispute)} (dispute_id, requester_id, matcher_id, outcome, sanction_user_id, sanction_kind)
     values ${resolutions.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}
     on conflict (dispute_id) do nothing`,
    resolutions.flatMap((r) => [r.disputeId, r.requesterId, r.matcherId, r.outcome, r.sanction?.userId ?? null, r.sanction?.kind ?? null]),
  );
}

/**
 * The trust ratings of each directory tier (spec section 9, directoryTier in the contracts: Platinum >= 4.5, Gold >= 4,
 * Silver >= 3.5, Bronze >= 3, else Unverified, not rated yet included), as conditions on the stored rating.
 */
export const TIER_RATINGS: Record<TrustLevel, FilterQuery<User>> = {
  Platinum: { trustRating: { $gte: '4.5' } },
  Gold: { trustRating: { $gte: '4.0', $lt: '4.5' } },
  Silver: { trustRating: { $gte: '3.5', $lt: '4.0' } },
  Bronze: { trustRating: { $gte: '3.0', $lt: '3.5' } },
  Unverified: { $or: [{ trustRating: null }, { trustRating: { $lt: '3.0' } }] },
};

/** `text` as a LIKE pattern matching it anywhere, its own % and _ taken literally. */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function directoryFilter({ name, tier }: Pick<DirectoryQuery, 'name' | 'tier'>): FilterQuery<User> {
  const conditions: FilterQuery<User>[] = [NOT_DELETED];
  // The full name holds the first and the last: one condition finds a part of either, or one spanning both.
  if (name) conditions.push({ [raw((alias) => `(${alias}.first_name || ' ' || ${alias}.last_name)`)]: { $ilike: containing(name) } });
  if (tier) conditions.push(TIER_RATINGS[tier]);
  return { $and: conditions };
}

/** A page of the directory, by id, and how many users match in all. */
export async function directoryPage(em: EntityManager, query: DirectoryQuery): Promise<[User[], number]> {
  return em.findAndCount(User, directoryFilter(query), { orderBy: { id: 'asc' }, limit: query.limit, offset: query.offset });
}

const NO_DISPUTES: DisputeOutcomes = { completed: 0, cancelled: 0, warnings: 0, suspensions: 0 };

/** Each user's dispute outcomes: resolved disputes they were a party to, by outcome, and the sanctions given them. */
export async function disputeOutcomesOf(em: EntityManager, userIds: number[]): Promise<Map<number, DisputeOutcomes>> {
  const outcomes = new Map(userIds.map((id) => [id, NO_DISPUTES]));
  if (userIds.length === 0) return outcomes;
  const rows = await em.execute<{ user_id: number; completed: string; cancelled: string; warnings: string; suspensions: string }[]>(
    `select u.user_id,
       count(*) filter (where d.outcome = 'completed' and u.user_id in (d.requester_id, d.matcher_id)) as completed,
       count(*) filter (where d.outcome = 'cancelled' and u.user_id in (d.requester_id, d.matcher_id)) as cancelled,
       count(*) filter (where d.sanction_kind = 'warning' and d.sanction_user_id = u.user_id) as warnings,
       count(*) filter (where d.sanction_kind = 'suspension' and d.sanction_user_id = u.user_id) as suspensions
     from unnest(array[${userIds.map(() => '?').join(', ')}]::int[]) as u(user_id)
     join ${qualifiedTable(em, ResolvedDispute)} d on u.user_id in (d.requester_id, d.matcher_id, d.sanction_user_id)
     group by u.user_id`,
    userIds,
  );
  for (const r of rows) {
    outcomes.set(Number(r.user_id), {
      completed: Number(r.completed), cancelled: Number(r.cancelled), warnings: Number(r.warnings), suspensions: Number(r.suspensions),
    });
  }
  return outcomes;
}
