/**
 * Every event the accounts service consumes, in one list: the exchange service's matches, kept as trade locks
 * (domain/trade-lock.ts) and as the copy of the parties' accounts each confirmed match shows (domain/match-snapshot.ts),
 * identity's profile names (is each account's holder its owner? domain/profile-name.ts), and a user's deletion of
 * their account (their bank accounts and copies go). The inbox drops a redelivered event; the handlers are also safe
 * in any order, since one match's events may arrive late or out of order after a retry, and a name older than the
 * one held never overwrites it.
 */
import { consume } from '@puente/platform';
import { lockForMatch, releaseForMatch, TradeLock } from '../domain/trade-lock.ts';
import { dropSnapshot, expireSnapshot, takeSnapshot } from '../domain/match-snapshot.ts';
import { setProfileNames } from '../domain/profile-name.ts';
import { eraseUser } from '../domain/personal-data.ts';
import type { BankCipher } from '../domain/encryption.ts';

export const accountsConsumers = (cipher: BankCipher) => [
  consume('matchCreated', async (match, { em }) => { await lockForMatch(em, match); }),
  consume('matchConfirmed', async (match, { em }) => {
    await lockForMatch(em, match);
    // A match already ended (its end arrived first) is not copied: its accounts may have been edited since.
    if ((await em.findOne(TradeLock, { matchId: match.matchId }))?.active) await takeSnapshot(em, cipher, match, new Date());
  }),
  consume('matchCompleted', async (match, { em, event }) => {
    await releaseForMatch(em, match);
    await expireSnapshot(em, match.matchId, new Date(event.occurredAt));
  }),
  consume('matchCancelled', async (match, { em }) => {
    await releaseForMatch(em, match);
    await dropSnapshot(em, match.matchId);
  }),
  consume('matchExpired', async (match, { em }) => {
    await releaseForMatch(em, match);
    await dropSnapshot(em, match.matchId);
  }),
  consume('userRegistered', async ({ userId, firstName, lastName }, { em, event }) => {
    await setProfileNames(em, [{ userId, firstName, lastName }], new Date(event.occurredAt));
  }),
  consume('userProfileUpdated', async ({ userId, firstName, lastName }, { em, event }) => {
    await setProfileNames(em, [{ userId, firstName, lastName }], new Date(event.occurredAt));
  }),
  consume('userDeleted', async ({ userId }, { em, event }) => eraseUser(em, userId, new Date(event.occurredAt))),
];
