/**
 * Every event the accounts service consumes, in one list: the exchange service's matches, kept as trade locks
 * (domain/trade-lock.ts), and a user's deletion of their account (their bank accounts go). The inbox drops a
 * redelivered event; the handlers are also safe in any order, since one match's events may arrive late or out of
 * order after a retry.
 */
import { consume } from '@puente/platform';
import { lockForMatch, releaseForMatch } from '../domain/trade-lock.ts';
import { eraseUser } from '../domain/personal-data.ts';

export const consumers = [
  consume('matchCreated', async (match, { em }) => { await lockForMatch(em, match); }),
  consume('matchConfirmed', async (match, { em }) => { await lockForMatch(em, match); }),
  consume('matchCompleted', async (match, { em }) => { await releaseForMatch(em, match); }),
  consume('matchCancelled', async (match, { em }) => { await releaseForMatch(em, match); }),
  consume('matchExpired', async (match, { em }) => { await releaseForMatch(em, match); }),
  consume('userDeleted', async ({ userId }, { em }) => { await eraseUser(em, userId); }),
];
