/**
 * The names of users, from identity's events (and its snapshot at a start that never took it:
 * jobs/backfill-account-holders.ts), so a notification can say who did what ("Bea Lagos accepted your exchange
 * request", "Did you receive £200.00 from Ana Rojas?"). Name only: never an address or a bank detail. A user it has
 * not heard of is told of in general words ("Someone", "your exchange partner").
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { DeletedUser } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';

export const UserNameSchema = defineEntity({
  name: 'UserName',
  tableName: 'user_name',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    /** First and last name as the user wrote them ('Bea Lagos'). */
    name: p.text(),
    /** When the name was set (an older event never overwrites a newer one). */
    asOf: p.datetime(),
  },
});
export class UserName extends UserNameSchema.class {}
UserNameSchema.setClass(UserName);

/** The name as a notification shows it: first and last, as the exchange's cards do. */
export const fullName = (firstName: string, lastName: string): string => `${firstName.trim()} ${lastName.trim()}`.trim();

/**
 * Sets each user's name as of `asOf`, unless a newer one is in (a late or redelivered event, or a snapshot taken
 * before an event it did not see); one statement for the lot.
 */
export async function setUserNames(em: EntityManager, users: readonly { userId: number; name: string }[], asOf: Date): Promise<void> {
  if (users.length === 0) return;
  await em.execute(
    `insert into ${qualifiedTable(em, UserName)} as u (user_id, name, as_of) values ${users.map(() => '(?, ?, ?)').join(', ')}
     on conflict (user_id) do update set name = excluded.name, as_of = excluded.as_of where u.as_of < excluded.as_of`,
    users.flatMap((u) => [u.userId, u.name, asOf]),
  );
}

export const setUserName = (em: EntityManager, userId: number, name: string, asOf: Date) => setUserNames(em, [{ userId, name }], asOf);

/** A deleted user is named as identity names them from then on (an older name arriving later does not bring theirs back). */
export const eraseUserName = (em: EntityManager, userId: number, at: Date) => setUserName(em, userId, DeletedUser.firstName, at);

/** The names of these users that are known. */
export async function namesOf(em: EntityManager, userIds: readonly number[]): Promise<Map<number, string>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  return new Map((await em.find(UserName, { userId: { $in: ids } })).map((u) => [u.userId, u.name]));
}
