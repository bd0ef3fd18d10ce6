/**
 * The bank details a match's parties see: a copy of each party's account in the currency they receive (and the
 * holder of the one they pay from), taken when the match is confirmed, sealed as the accounts are but bound to the
 * match. The exchange service shows this copy, never the live account, so an edit made after the trade never
 * reaches a past partner. What is no longer needed is deleted: at once when the match is called off or a party
 * deletes their account, and CHAT_OPEN_DAYS_AFTER_COMPLETION days after completion (the purge job).
 *
 * Kept here rather than in the exchange service: this service already holds the keys and the details and hears
 * every match event, so no bank detail ever leaves it but to be shown; the exchange service decides whether a
 * match's details may be shown at all (its state, blocks) and holds none.
 */
import { defineEntity, LockMode, p, type EntityManager } from '@mikro-orm/postgresql';
import {
  CHAT_OPEN_DAYS_AFTER_COMPLETION, ClpAccountType, Currency, type MatchAccountsSnapshot, type MatchPartyAccounts,
} from '@puente/contracts';
import { BankAccount } from './bank-account.ts';
import type { BankCipher, SealedField } from './encryption.ts';
import { holderChecks } from './profile-name.ts';
import { lockForMatch, TradeLock } from './trade-lock.ts';

export const MatchAccountSnapshotSchema = defineEntity({
  name: 'MatchAccountSnapshot',
  tableName: 'match_account_snapshot',
  properties: {
    matchId: p.integer().primary().autoincrement(false),
    userId: p.integer().primary().autoincrement(false),
    role: p.enum(['requester', 'matcher'] as const),
    /** The party's account in the currency they receive, as it was; its details sealed for this match. */
    accountId: p.integer(),
    currency: p.enum(Currency.options),
    bankName: p.string(),
    accountHolder: p.string(),
    accountNumberSealed: p.text(),
    rutSealed: p.text().nullable(),
    accountType: p.enum(ClpAccountType.options).nullable(),
    email: p.string().nullable(),
    sortCodeSealed: p.text().nullable(),
    ibanSealed: p.text().nullable(),
    holderMatchesName: p.boolean().nullable(),
    /** The holder of the party's account in the currency they pay, and its flag; null when they had none. */
    payerHolder: p.string().nullable(),
    payerHolderMatchesName: p.boolean().nullable(),
    takenAt: p.datetime(),
    /** Set when the match completes: from then on the copy is no longer given, and the purge job deletes it. */
    expiresAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'match_account_snapshot_user_id_index', properties: ['userId'] },
    { name: 'match_account_snapshot_expires_at_index', properties: ['expiresAt'] },
  ],
});
export class MatchAccountSnapshot extends MatchAccountSnapshotSchema.class {}
MatchAccountSnapshotSchema.setClass(MatchAccountSnapshot);

/** A match as the exchange service announces it: its parties and its request's currencies. */
export interface MatchTerms { matchId: number; requesterId: number; matcherId: number; fromCurrency: Currency; toCurrency: Currency }

const DAY_MS = 86_400_000;
const SEALED: [SealedField, 'accountNumberSealed' | 'rutSealed' | 'sortCodeSealed' | 'ibanSealed'][] = [
  ['accountNumber', 'accountNumberSealed'], ['rut', 'rutSealed'], ['sortCode', 'sortCodeSealed'], ['iban', 'ibanSealed'],
];

/** The requester receives the request's target currency and pays in its source; the matcher the other way round. */
const sides = (t: MatchTerms) => [
  { role: 'requester', userId: t.requesterId, receives: t.toCurrency, pays: t.fromCurrency },
  { role: 'matcher', userId: t.matcherId, receives: t.fromCurrency, pays: t.toCurrency },
] as const;

/**
 * Copies both parties' accounts for the match, in the caller's transaction, unless copied already. False when a
 * party has no account in the currency they receive (nothing is copied). The accounts are read FOR SHARE: an edit in
 * flight finishes first, and the trade lock refuses any later one while the match is in progress.
 */
export async function takeSnapshot(tx: EntityManager, cipher: BankCipher, terms: MatchTerms, at: Date): Promise<boolean> {
  const accounts = await tx.find(BankAccount, { userId: { $in: [terms.requesterId, terms.matcherId] } }, { lockMode: LockMode.PESSIMISTIC_READ });
  const accountOf = (userId: number, currency: Currency) => accounts.find((a) => a.userId === userId && a.currency === currency);
  const parties = sides(terms).map((side) => ({ ...side, payout: accountOf(side.userId, side.receives), payer: accountOf(side.userId, side.pays) }));
  if (parties.some((party) => !party.payout)) return false;
  const checks = await holderChecks(tx, accounts);
  const rows = parties.map(({ role, userId, payout, payer }) => {
    const account = payout!;
    const sealed = Object.fromEntries(SEALED.map(([field, column]) => {
      const value = account[column];
      return [column, value ? cipher.sealForMatch(field, userId, terms.matchId, cipher.open(field, userId, value)) : null];
    })) as Record<(typeof SEALED)[number][1], string | null>;
    return {
      matchId: terms.matchId, userId, role, accountId: account.id, currency: account.currency, bankName: account.bankName,
      accountHolder: account.accountHolder, ...sealed, accountNumberSealed: sealed.accountNumberSealed!,
      accountType: account.accountType ?? null, email: account.email ?? null, holderMatchesName: checks.get(account) ?? null,
      payerHolder: payer?.accountHolder ?? null, payerHolderMatchesName: payer ? checks.get(payer) ?? null : null,
      takenAt: at, expiresAt: null,
    };
  });
  await tx.createQueryBuilder(MatchAccountSnapshot).insert(rows).onConflict(['matchId', 'userId']).ignore().execute();
  return true;
}

/**
 * The copy the exchange service shows (it has checked the match's state and blocks): the one held, or, while this
 * service does not know the match to have ended, one taken now should the confirmation not have arrived yet. The
 * parties' accounts are locked for the match first, as its events would: edits are refused from the match's creation,
 * so it is the same data. Null when there is none to give (ended without one, purged, past its time, or a party
 * with no account in the currency they receive).
 */
export async function snapshotFor(tx: EntityManager, cipher: BankCipher, terms: MatchTerms, now: Date): Promise<MatchAccountsSnapshot> {
  let rows = await tx.find(MatchAccountSnapshot, { matchId: terms.matchId });
  if (rows.length === 0) {
    const lock = await tx.findOne(TradeLock, { matchId: terms.matchId });
    if (lock && !lock.active) return null;
    await lockForMatch(tx, terms);
    if (!await takeSnapshot(tx, cipher, terms, now)) return null;
    rows = await tx.find(MatchAccountSnapshot, { matchId: terms.matchId }, { refresh: true });
  }
  const requester = rows.find((r) => r.role === 'requester');
  const matcher = rows.find((r) => r.role === 'matcher');
  if (!requester || !matcher || rows.some((r) => r.expiresAt && r.expiresAt <= now)) return null;
  return { matchId: terms.matchId, takenAt: requester.takenAt.toISOString(), requester: partyView(cipher, requester), matcher: partyView(cipher, matcher) };
}

function partyView(cipher: BankCipher, row: MatchAccountSnapshot): MatchPartyAccounts {
  const open = (field: SealedField, sealed: string | null | undefined) => (sealed ? cipher.openForMatch(field, row.userId, row.matchId, sealed) : null);
  return {
    userId: row.userId,
    payout: {
      id: row.accountId, currency: row.currency, bankName: row.bankName, accountNumber: open('accountNumber', row.accountNumberSealed)!,
      accountHolder: row.accountHolder, rut: open('rut', row.rutSealed), accountType: row.accountType ?? null, email: row.email ?? null,
      sortCode: open('sortCode', row.sortCodeSealed), iban: open('iban', row.ibanSealed), holderMatchesName: row.holderMatchesName ?? null,
    },
    payer: row.payerHolder ? { accountHolder: row.payerHolder, holderMatchesName: row.payerHolderMatchesName ?? null } : null,
  };
}

/** Seals every detail of a copy again with the current key (to retire an old one), bound to its match as before. */
export function resealSnapshot(cipher: BankCipher, row: MatchAccountSnapshot): void {
  for (const [field, column] of SEALED) {
    const value = row[column];
    if (value) row[column] = cipher.sealForMatch(field, row.userId, row.matchId, cipher.openForMatch(field, row.userId, row.matchId, value));
  }
}

/** The match completed at `completedAt`: its copy is given for the chat's window after it, then purged. */
export async function expireSnapshot(em: EntityManager, matchId: number, completedAt: Date): Promise<void> {
  const expiresAt = new Date(completedAt.getTime() + CHAT_OPEN_DAYS_AFTER_COMPLETION * DAY_MS);
  await em.nativeUpdate(MatchAccountSnapshot, { matchId, expiresAt: null }, { expiresAt });
}

/** The match was called off (or expired): its copy goes at once, never to be given again. */
export async function dropSnapshot(em: EntityManager, matchId: number): Promise<void> {
  await em.nativeDelete(MatchAccountSnapshot, { matchId });
}

/** Deletes the copies past their time; answers how many rows went. */
export async function purgeExpiredSnapshots(em: EntityManager, now: Date): Promise<number> {
  return em.nativeDelete(MatchAccountSnapshot, { expiresAt: { $lte: now } });
}

/** A deleted user's copies go, with their partners' rows of the same matches (of no use without theirs). */
export async function eraseSnapshotsOf(em: EntityManager, userId: number): Promise<void> {
  const mine = await em.find(MatchAccountSnapshot, { userId }, { fields: ['matchId'] });
  if (mine.length > 0) await em.nativeDelete(MatchAccountSnapshot, { matchId: { $in: mine.map((r) => r.matchId) } });
}
