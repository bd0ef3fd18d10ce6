/**
 * Every event the accounts service consumes, in one list: the exchange service's matches, kept as trade locks
 * (domain/trade-lock.ts), identity's profile names (is each account's holder its owner? domain/profile-name.ts), and
 * a user's deletion of their account (their bank accounts go). The inbox drops a redelivered event; the handlers are
 * also safe in any order, since one match's events may arrive late or out of order after a retry, and a name older
 * than the one held never overwrites it.
 */
import { consume } from '@puente/platform';
import { lockForMatch, releaseForMatch } from '../domain/trade-lock.ts';
import { setProfileNames } from '../domain/profile-name.ts';
import { eraseUser } from '../domain/personal-data.ts';

export const consumers = [
  consume('matchCreated', async (match, { em }) => { await lockForMatch(em, match); }),
  consume('matchConfirmed', async (match, { em }) => { await lockForMatch(em, match); }),
  consume('matchCompleted', async (match, { em }) => { await releaseForMatch(em, match); }),
  consume('matchCancelled', async (match, { em }) => { await releaseForMatch(em, match); }),
  consume('matchExpired', async (match, { em }) => { await releaseForMatch(em, match); }),
  consume('userRegistered', async ({ userId, firstName, lastName }, { em, event }) => {
    await setProfileNames(em, [{ userId, firstName, lastName }], new Date(event.occurredAt));
  }),
  consume('userProfileUpdated', async ({ userId, firstName, lastName }, { em, event }) => {
    await setProfileNames(em, [{ userId, firstName, lastName }], new Date(event.occurredAt));
  }),
  consume('userDeleted', async ({ userId }, { em, event }) => eraseUser(em, userId, new Date(event.occurredAt))),
];
