/**
 * What the rating service knows of users: the first name shown beside each rating they gave, from identity's
 * events (and a snapshot when it starts without them, jobs/backfill-projections.ts). Nothing else.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { qualifiedTable } from '@puente/platform';

export const RaterSchema = defineEntity({
  name: 'Rater',
  tableName: 'rater',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    firstName: p.text().default(''),
    /** When the name was last set (an older event or snapshot never overwrites a newer value). */
    profileAsOf: p.datetime().nullable(),
  },
});
export class Rater extends RaterSchema.class {}
RaterSchema.setClass(Rater);

/**
 * Sets each user's first name as of `asOf`, unless a value as new or newer is already in (a late event, or a
 * snapshot taken before an event it did not see); one statement for the lot.
 */
export async function setRaterNames(em: EntityManager, users: { userId: number; firstName: string }[], asOf: Date): Promise<void> {
  if (users.length === 0) return;
  await em.execute(
    `insert into ${qualifiedTable(em, Rater)} as r (user_id, first_name, profile_as_of) values ${users.map(() => '(?, ?, ?)').join(', ')}
     on conflict (user_id) do update set first_name = excluded.first_name, profile_as_of = excluded.profile_as_of
     where r.profile_as_of is null or r.profile_as_of < excluded.profile_as_of`,
    users.flatMap((u) => [u.userId, u.firstName, asOf]),
  );
}
