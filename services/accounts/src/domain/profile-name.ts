/**
 * What the accounts service knows of users besides their accounts: their profile name (identity's first and last
 * name), from identity's events and a snapshot when it starts without them (jobs/backfill-profile-names.ts), so each
 * account can say whether its holder is that name (domain/holder-name.ts). Nothing else of the user.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { qualifiedTable } from '@puente/platform';
import { holderMatchesName } from './holder-name.ts';

export const ProfileNameSchema = defineEntity({
  name: 'ProfileName',
  tableName: 'profile_name',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    firstName: p.text(),
    lastName: p.text(),
    /** When the name was last set (an older event or snapshot never overwrites a newer value). */
    profileAsOf: p.datetime(),
  },
});
export class ProfileName extends ProfileNameSchema.class {}
ProfileNameSchema.setClass(ProfileName);

interface Named { userId: number; firstName: string; lastName: string }

/** Sets each user's name as of `asOf`, unless a value as new or newer is already in; one statement for the lot. */
export async function setProfileNames(em: EntityManager, users: Named[], asOf: Date): Promise<void> {
  if (users.length === 0) return;
  await em.execute(
    `insert into ${qualifiedTable(em, ProfileName)} as n (user_id, first_name, last_name, profile_as_of)
     values ${users.map(() => '(?, ?, ?, ?)').join(', ')}
     on conflict (user_id) do update set first_name = excluded.first_name, last_name = excluded.last_name,
       profile_as_of = excluded.profile_as_of
     where n.profile_as_of < excluded.profile_as_of`,
    users.flatMap((u) => [u.userId, u.firstName, u.lastName, asOf]),
  );
}

/**
 * Whether each account's holder is its owner's profile name: null while the name is not known here yet (a moment
 * after sign-up, before identity's event arrives), so no account is flagged on a guess.
 */
export async function holderChecks<A extends { userId: number; accountHolder: string }>(
  em: EntityManager, accounts: A[],
): Promise<Map<A, boolean | null>> {
  const userIds = [...new Set(accounts.map((a) => a.userId))];
  const names = new Map(userIds.length === 0 ? [] : (await em.find(ProfileName, { userId: { $in: userIds } })).map((n) => [n.userId, n]));
  return new Map(accounts.map((a) => {
    const name = names.get(a.userId);
    return [a, name ? holderMatchesName(a.accountHolder, name) : null];
  }));
}
