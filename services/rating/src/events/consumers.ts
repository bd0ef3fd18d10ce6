/**
 * Every event the rating service consumes, in one list: the exchange service's match events (who may rate whom, and
 * when), a dispute of a completed match (its ratings held meanwhile), identity's names (the rater's first name beside
 * each rating) and a user's deletion of their account. Each handler is idempotent on its own terms too: events may
 * be redelivered, arrive in any order across topics, or be older than the snapshot the projection started from.
 */
import { consume } from '@puente/platform';
import { setRaterNames } from '../domain/rater.ts';
import { advanceTrade } from '../domain/trade.ts';
import { eraseUser } from '../domain/personal-data.ts';
import { holdRatings, releaseRatings } from '../domain/rating-holds.ts';

export const consumers = [
  consume('matchCreated', async (m, { em }) => { await advanceTrade(em, m, 'pending'); }),
  consume('matchConfirmed', async (m, { em }) => { await advanceTrade(em, m, 'confirmed'); }),
  consume('matchCompleted', async (m, { em }) => { await advanceTrade(em, m, 'completed'); }),
  consume('matchCancelled', async (m, { em }) => { await advanceTrade(em, m, 'cancelled'); }),
  consume('matchExpired', async (m, { em }) => { await advanceTrade(em, m, 'expired'); }),
  // A 'No' to the receipt question holds the match's ratings until the dispute is resolved; standings moved are announced.
  consume('disputeOpened', async (d, { em }) => holdRatings(em, d)),
  consume('disputeResolved', async (d, { em }) => releaseRatings(em, d)),
  consume('userRegistered', async ({ userId, firstName }, { em, event }) => {
    await setRaterNames(em, [{ userId, firstName }], new Date(event.occurredAt));
  }),
  consume('userProfileUpdated', async ({ userId, firstName }, { em, event }) => {
    await setRaterNames(em, [{ userId, firstName }], new Date(event.occurredAt));
  }),
  consume('userDeleted', async ({ userId }, { em, event }) => {
    await eraseUser(em, userId, new Date(event.occurredAt));
  }),
];
