/**
 * Every event identity consumes, in one list: projections other services own, kept on the user record so that
 * GET /api/auth/user and the public profiles read one row. Each handler is idempotent on its own terms too
 * (events may be redelivered or, across aggregates, arrive in any order).
 */
import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { roundDecimal } from '@puente/contracts';
import { consume } from '@puente/platform';
import { User } from '../domain/user.ts';
import { AccountCurrency } from '../domain/account-currencies.ts';

/** Whole seconds from one instant to a later one (never negative). */
const secondsBetween = (from: Date, to: Date): number => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));

async function refreshHasBothAccounts(em: EntityManager, userId: number): Promise<void> {
  const user = await em.findOne(User, { id: userId });
  if (!user) return;
  const currencies = new Set((await em.find(AccountCurrency, { userId })).map((a) => a.currency));
  user.hasBothAccounts = currencies.has('GBP') && currencies.has('CLP');
  await em.flush();
}

export const consumers = [
  consume('bankAccountAdded', async ({ accountId, userId, currency }, { em }) => {
    await em.upsert(AccountCurrency, { accountId, userId, currency });
    await refreshHasBothAccounts(em, userId);
  }),
  consume('bankAccountRemoved', async ({ accountId, userId }, { em }) => {
    await em.nativeDelete(AccountCurrency, { accountId });
    await refreshHasBothAccounts(em, userId);
  }),
  consume('ratingSubmitted', async ({ toUserId, toUserAverage, toUserCount }, { em }) => {
    const user = await em.findOne(User, { id: toUserId });
    // The rating service sends the running average and count; an older event never overwrites a newer one.
    if (!user || toUserCount <= user.ratingCount) return;
    user.trustRating = roundDecimal(toUserAverage, 1); // as shown, rounded on its digits (never a float)
    user.ratingCount = toUserCount;
    await em.flush();
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
  consume('subscriptionActivated', async ({ userId }, { em }) => {
    await em.nativeUpdate(User, { id: userId }, { subscriptionTier: 'premium' });
  }),
  consume('subscriptionCancelled', async ({ userId }, { em }) => {
    await em.nativeUpdate(User, { id: userId }, { subscriptionTier: 'free' });
  }),
];
