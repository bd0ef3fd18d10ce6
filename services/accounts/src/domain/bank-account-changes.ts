/**
 * The changes to a user's bank accounts, each returning the event that announces it (ids, owner and currency; never
 * details): identity's hasBothAccounts and the exchange and notification projections follow them. Callers check the
 * trade lock (trade-lock.ts) and write the events with ServiceContext.change, or return them from a consumer.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { accountNumberProblem, normalizeAccountNumber, type BankAccountCreate, type BankAccountUpdate, type EventEnvelope } from '@puente/contracts';
import { changed, fieldInvalid, makeEvent, type Changed } from '@puente/platform';
import { BankAccount, reseal, sealNewAccount } from './bank-account.ts';
import type { BankCipher } from './encryption.ts';

const about = (a: BankAccount) => ({ accountId: a.id, userId: a.userId, currency: a.currency });

/** A new account for `userId`, its details sealed (the caller checked it has none in this currency). */
export async function addBankAccount(
  em: Pick<EntityManager, 'create' | 'flush'>, cipher: BankCipher, userId: number, input: BankAccountCreate,
): Promise<Changed<BankAccount>> {
  const created = em.create(BankAccount, sealNewAccount(cipher, userId, input));
  await em.flush(); // the id goes into the event
  return changed(created, makeEvent('bankAccountAdded', created.id, about(created)));
}

/**
 * Only the bank name, holder and account number change, so the currency never does; the number is checked by the
 * currency's rule (400 otherwise) and every detail is sealed again with the current key.
 */
export function updateBankAccount(cipher: BankCipher, account: BankAccount, changes: BankAccountUpdate): EventEnvelope[] {
  const problem = accountNumberProblem(account.currency, changes.accountNumber);
  if (problem) throw fieldInvalid('accountNumber', problem);
  account.bankName = changes.bankName;
  account.accountHolder = changes.accountHolder;
  account.accountNumberSealed = cipher.seal('accountNumber', account.userId, normalizeAccountNumber(account.currency, changes.accountNumber));
  reseal(cipher, account);
  return [makeEvent('bankAccountUpdated', account.id, about(account))];
}

/** The account goes (deleted at the flush). */
export function removeBankAccount(em: Pick<EntityManager, 'remove'>, account: BankAccount): EventEnvelope[] {
  const event = makeEvent('bankAccountRemoved', account.id, about(account));
  em.remove(account);
  return [event];
}
