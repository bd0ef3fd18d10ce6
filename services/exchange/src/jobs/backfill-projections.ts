/**
 * Projections start full: when this service starts without having taken a projection's snapshot (a new install,
 * or users and accounts that existed before it ran), it pages through identity's users and the accounts service's
 * account currencies and fills its projections, then records that it did. Events keep them current from there;
 * a snapshot value never overwrites a newer one an event already brought (profileAsOf, tierAsOf, ratingCount), and
 * memberSince keeps the earliest time known (identity's createdAt comes just before its registration event).
 * A job, so it retries with backoff while identity or accounts are still starting.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Routes, type User } from '@puente/contracts';
import { changed, projectionBackfill, readSnapshot } from '@puente/platform';
import { local } from '../domain/market-version.ts';
import { Trader, TraderAccount } from '../domain/traders.ts';

function applyUser(em: EntityManager, existing: Trader | undefined, u: User, asOf: Date): void {
  const trader = existing ?? em.create(Trader, { userId: u.id });
  if (!trader.profileAsOf || trader.profileAsOf < asOf) {
    Object.assign(trader, { firstName: u.firstName, lastName: u.lastName, profileImageUrl: u.profileImageUrl, profileAsOf: asOf });
  }
  if (!trader.tierAsOf || trader.tierAsOf < asOf) Object.assign(trader, { tier: u.subscriptionTier, tierAsOf: asOf });
  if (u.ratingCount > trader.ratingCount) {
    Object.assign(trader, { ratingCount: u.ratingCount, trustRating: u.trustRating === null ? null : u.trustRating.toFixed(1) });
  }
  trader.transactionCount = Math.max(trader.transactionCount ?? 0, u.transactionCount);
  // Verifications are only ever granted: one an event already brought stays.
  for (const flag of ['emailVerified', 'phoneVerified', 'idVerified', 'bankVerified'] as const) trader[flag] = Boolean(trader[flag]) || u[flag];
  const joinedAt = new Date(u.createdAt);
  if (!trader.memberSince || joinedAt < trader.memberSince) trader.memberSince = joinedAt;
}

export const backfill = projectionBackfill('backfill-projections', {
  users: (ctx) => readSnapshot(ctx, 'identity', Routes.identity.internalUsers, (u) => u.id, async (users) => {
    const asOf = new Date();
    await ctx.change(async (tx) => {
      const existing = new Map((await tx.find(Trader, { userId: { $in: users.map((u) => u.id) } })).map((t) => [t.userId, t]));
      for (const u of users) applyUser(tx, existing.get(u.id), u, asOf);
      return changed(undefined, local('cardsFilled', { userIds: users.map((u) => u.id) }));
    });
  }),
  'account-currencies': (ctx) => readSnapshot(ctx, 'accounts', Routes.accounts.accountCurrencies, (a) => a.accountId, async (accounts) => {
    await ctx.orm.em.fork().upsertMany(TraderAccount, accounts, { onConflictAction: 'ignore' });
  }),
});
