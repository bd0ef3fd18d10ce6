/**
 * Every event the exchange service consumes, in one list: the projections of users (names, picture, trust, account
 * age, verifications, plan tier) and of who has an account in which currency, and a user's deletion of their account. Each handler is idempotent on its own terms too:
 * events may be redelivered, arrive in any order across topics, or be older than the snapshot the projection started
 * from.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { roundDecimal, type VerificationType } from '@puente/contracts';
import { consume } from '@puente/platform';
import { TraderAccount, traderRow } from '../domain/traders.ts';
import { eraseUser } from '../domain/personal-data.ts';
import type { ChatFiles } from '../domain/chat-attachments.ts';

/** Applies a change of the user's names and picture unless a newer one is already in. */
async function setProfile(em: EntityManager, userId: number, asOf: Date, profile: { firstName: string; lastName: string; profileImageUrl?: string | null }) {
  const trader = await traderRow(em, userId);
  if (trader.profileAsOf && trader.profileAsOf >= asOf) return;
  trader.firstName = profile.firstName;
  trader.lastName = profile.lastName;
  if (profile.profileImageUrl !== undefined) trader.profileImageUrl = profile.profileImageUrl;
  trader.profileAsOf = asOf;
  await em.flush();
}

/**
 * Keeps the earliest time known for the user joining: the registration event is stamped just after identity's
 * createdAt, so the snapshot's value wins whether it comes first or later.
 */
async function setMemberSince(em: EntityManager, userId: number, joinedAt: Date) {
  const trader = await traderRow(em, userId);
  if (trader.memberSince && trader.memberSince <= joinedAt) return;
  trader.memberSince = joinedAt;
  await em.flush();
}

/** Verifications are only ever granted (identity has no revocation): a redelivered or late one sets the same flag. */
async function setVerified(em: EntityManager, userId: number, kind: VerificationType) {
  const trader = await traderRow(em, userId);
  trader[`${kind}Verified`] = true;
  await em.flush();
}

async function setTier(em: EntityManager, userId: number, asOf: Date, tier: 'free' | 'premium') {
  const trader = await traderRow(em, userId);
  if (trader.tierAsOf && trader.tierAsOf >= asOf) return;
  trader.tier = tier;
  trader.tierAsOf = asOf;
  await em.flush();
}

/** What the exchange service consumes; a deleted user's files are erased from `files`' storage. */
export const consumers = (files: ChatFiles) => [
  // A trader's card changes (names, picture, trust): the lists showing it answer anew once it is committed (the
  // version table, domain/market-version.ts).
  consume('userRegistered', async ({ userId, firstName, lastName }, { em, event }) => {
    const registeredAt = new Date(event.occurredAt);
    await setProfile(em, userId, registeredAt, { firstName, lastName });
    await setMemberSince(em, userId, registeredAt);
    await setVerified(em, userId, 'email'); // identity registers a user once their email is verified (token or Google)
  }),
  // A verification counts towards the trust level a request may require (no list shows it: nothing to bump).
  consume('userVerified', async ({ userId, kind }, { em }) => {
    await setVerified(em, userId, kind);
  }),
  consume('userProfileUpdated', async ({ userId, firstName, lastName, profileImageUrl }, { em, event }) => {
    await setProfile(em, userId, new Date(event.occurredAt), { firstName, lastName, profileImageUrl });
  }),
  consume('ratingSubmitted', async ({ toUserId, toUserAverage, toUserCount }, { em }) => {
    const trader = await traderRow(em, toUserId);
    // The rating service sends the running average and count: an older event never overwrites a newer one.
    if (toUserCount <= trader.ratingCount) return;
    trader.trustRating = roundDecimal(toUserAverage, 1);
    trader.ratingCount = toUserCount;
    await em.flush();
  }),
  // A standing moved without a rating (ratings held while a completed match's 'No' dispute is open, or released): the
  // count may go down, so it is taken as it comes; it travels in order with ratingSubmitted (keyed by the user).
  consume('ratingStandingChanged', async ({ userId, average, count }, { em }) => {
    const trader = await traderRow(em, userId);
    trader.trustRating = average === null ? null : roundDecimal(average, 1);
    trader.ratingCount = count;
    await em.flush();
  }),
  consume('subscriptionActivated', async ({ userId }, { em, event }) => {
    await setTier(em, userId, new Date(event.occurredAt), 'premium');
  }),
  consume('subscriptionCancelled', async ({ userId }, { em, event }) => {
    await setTier(em, userId, new Date(event.occurredAt), 'free');
  }),
  consume('bankAccountAdded', async ({ accountId, userId, currency }, { em }) => {
    await em.upsert(TraderAccount, { accountId, userId, currency });
  }),
  consume('bankAccountRemoved', async ({ accountId }, { em }) => {
    await em.nativeDelete(TraderAccount, { accountId });
  }),
  // Their card shows a deleted user from now on; what they had open to trade ends (domain/personal-data.ts).
  consume('userDeleted', async ({ userId }, { em, event }) => {
    const { events, local } = await eraseUser(em, files, userId, new Date(event.occurredAt));
    return [...events, ...local];
  }),
];
