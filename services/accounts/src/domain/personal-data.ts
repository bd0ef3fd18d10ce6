/**
 * What the accounts service holds of a user, for their data download (their bank accounts, full values: they are the
 * owner), and their deletion: every bank account is deleted, each removal announced as any other is (identity's
 * hasBothAccounts and the exchange and notification projections follow).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountsPersonalData, EventEnvelope } from '@puente/contracts';
import { BankAccount, toBankAccountViews } from './bank-account.ts';
import { removeBankAccount } from './bank-account-changes.ts';
import { setProfileNames } from './profile-name.ts';
import { eraseSnapshotsOf } from './match-snapshot.ts';
import type { BankCipher } from './encryption.ts';

export async function personalDataOf(em: EntityManager, cipher: BankCipher, userId: number): Promise<AccountsPersonalData> {
  const accounts = await em.find(BankAccount, { userId }, { orderBy: { id: 'asc' } });
  return { bankAccounts: await toBankAccountViews(em, cipher, accounts) };
}

/**
 * Deletes the user's bank accounts in the caller's transaction, trade locks or not: identity refuses a deletion while
 * a match is in progress, and what slipped past it in the moment between is no reason to keep a deleted user's details.
 * The copies their matches show go too (domain/match-snapshot.ts), their partners' included.
 * Their profile name is blanked as of `at` (the deletion), so an older name arriving later never brings it back.
 * Returns the removals' events.
 */
export async function eraseUser(em: EntityManager, userId: number, at: Date): Promise<EventEnvelope[]> {
  await setProfileNames(em, [{ userId, firstName: '', lastName: '' }], at);
  await eraseSnapshotsOf(em, userId);
  const accounts = await em.find(BankAccount, { userId });
  const events = accounts.flatMap((a) => removeBankAccount(em, a));
  await em.flush();
  return events;
}
