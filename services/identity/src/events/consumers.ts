/**
 * Every event identity consumes, in one list: projections other services own, kept on the user record so that
 * GET /api/auth/user and the public profiles read one row. Each handler is idempotent on its own terms too
 * (events may be redelivered or, across aggregates, arrive in any order).
 */
import { LockMode, raw, type EntityManager } from '@mikro-orm/postgresql';
import { roundDecimal } from '@puente/contracts';
import { consume } from '@puente/platform';
import { User } from '../domain/user.ts';
import { AccountCurrency } from '../domain/account-currencies.ts';
import { keepResolvedDisputes } from '../domain/directory.ts';

/** Whole seconds from one instant to a later one (never negative). */
const secondsBetween = (from: Date, to: Date): number => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));

/**
 * Applies a change to the user's account currencies and recomputes hasBothAccounts, under a lock on the user row:
 * each account is its own aggregate, so a user's GBP and CLP events can be handled at the same time, and without
 * the lock each would see only its own account and both would leave false.
 */
async function changeAccounts(em: EntityManager, userId: number, change: () => Promise<unknown>): Promise<void> {
  const user = await em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  await change();
  if (!user) return;
  const currencies = new Set((await em.find(AccountCurrency, { userId })).map((a) => a.currency));
  user.hasBothAccounts = currencies.has('GBP') && currencies.has('CLP');
  await em.flush();
}

export const consumers = [
  consume('bankAccountAdded', async ({ accountId, userId, currency }, { em }) => {
    await changeAccounts(em, userId, () => em.upsert(AccountCurrency, { accountId, userId, currency }));
  }),
  consume('bankAccountRemoved', async ({ accountId, userId }, { em }) => {
    await changeAccounts(em, userId, () => em.nativeDelete(AccountCurrency, { accountId }));
  }),
  consume('ratingSubmitted', async ({ toUserId, toUserAverage, toUserCount }, { em }) => {
    // The rating service sends the running average and count; an older event never overwrites a newer one (the
    // lock orders two ratings of one user handled at once).
    const user = await em.findOne(User, { id: toUserId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!user || toUserCount <= user.ratingCount) return;
    user.trustRating = roundDecimal(toUserAverage, 1); // as shown, rounded on its digits (never a float)
    user.ratingCount = toUserCount;
    await em.flush();
  }),
  // A standing moved without a rating (a completed match's ratings held while its 'No' dispute is open, or released):
  // the count may go down, so it is taken as it comes; it travels in order with ratingSubmitted (keyed by the user).
  consume('ratingStandingChanged', async ({ userId, average, count }, { em }) => {
    await em.nativeUpdate(User, { id: userId }, { trustRating: average === null ? null : roundDecimal(average, 1), ratingCount: count });
  }),
  // The trade record is counted in SQL: events of one user's other matches may be applied at the same time.
  consume('matchConfirmed', async ({ requesterId, matcherId }, { em }) => {
    await em.nativeUpdate(User, { id: { $in: [requesterId, matcherId] } }, { confirmedMatchCount: raw('confirmed_match_count + 1') });
  }),
  consume('matchCompleted', async ({ requesterId, matcherId, confirmedAt }, { em, event }) => {
    // Timed from the confirmation to the event (published as the match completed); older events carry no confirmedAt.
    const seconds = confirmedAt === undefined ? null : secondsBetween(new Date(confirmedAt), new Date(event.occurredAt));
    await em.nativeUpdate(User, { id: { $in: [requesterId, matcherId] } }, {
      transactionCount: raw('transaction_count + 1'),
      completedMatchCount: raw('completed_match_count + 1'),
      ...(seconds === null ? {} : {
        timedCompletionCount: raw('timed_completion_count + 1'),
        completionSecondsTotal: raw('completion_seconds_total + ?', [seconds]),
      }),
    });
  }),
  // The directory's dispute outcomes: one row per resolved dispute, so a redelivered event counts once.
  consume('disputeResolved', async ({ disputeId, requesterId, matcherId, outcome, sanction }, { em }) => {
    await keepResolvedDisputes(em, [{ disputeId, requesterId, matcherId, outcome, sanction }]);
  }),
  consume('subscriptionActivated', async ({ userId }, { em }) => {
    await em.nativeUpdate(User, { id: userId }, { subscriptionTier: 'premium' });
  }),
  consume('subscriptionCancelled', async ({ userId }, { em }) => {
    await em.nativeUpdate(User, { id: userId }, { subscriptionTier: 'free' });
  }),
];
