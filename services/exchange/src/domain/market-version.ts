/**
 * The versions behind the exchange service's polled lists (ExchangeVersions in @puente/contracts; platform
 * http/versions.ts): `market` — every open request and its poster's card, one list for everyone without blocks —,
 * `viewer:<id>` — what a user's blocks hide from their market — and `trader:<id>` — a user's own requests and
 * matches. The service's version table says which keys each event and local change moves: every event of a request
 * or a match gives the market a new version and the trader key of its parties; a card's change (consumed, or filled
 * from identity's snapshot) the keys of the lists that show it; a block made or lifted (a local change: no other
 * service hears of it) both users' viewer keys. The platform bumps them once the change or the consumed event is
 * committed.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ExchangeVersions } from '@puente/contracts';
import { localChanges, type VersionTable } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { Trader } from './traders.ts';

/** The keys to bump after a change to the market and these users' trades. */
export const changedKeys = (userIds: Iterable<number>): string[] => [ExchangeVersions.market, ...[...userIds].map(ExchangeVersions.trader)];

/**
 * The keys to bump when a user's card (names, picture, trust) changes: it shows in the market, in their own
 * requests, and (their name) in the matches of the requesters whose requests they accepted.
 */
export async function cardChangedKeys(em: EntityManager, userId: number): Promise<string[]> {
  const accepted = await em.find(ExchangeMatch, { matcherId: userId }, { fields: ['requesterId'] });
  return changedKeys([userId, ...accepted.map((m) => m.requesterId)]);
}

const ownersKeys = ({ userId }: { userId: number }) => changedKeys([userId]);
const partiesKeys = ({ requesterId, matcherId }: { requesterId: number; matcherId: number }) => changedKeys([requesterId, matcherId]);

type ExchangeChanges = {
  /** A block between these users was made or lifted (domain/blocks.ts). */
  blockChanged: { blockerId: number; blockedId: number };
  /** These users' cards were filled from identity's snapshot (jobs/backfill-projections.ts). */
  cardsFilled: { userIds: number[] };
};

export const local = localChanges<ExchangeChanges>();

/** Which polled keys each event the service publishes or consumes, and each local change, moves (evaluated in the transaction, bumped after it). */
export const exchangeVersions: VersionTable<ExchangeChanges> = {
  requestCreated: ownersKeys,
  requestCancelled: ownersKeys,
  requestCompleted: ownersKeys,
  requestExpired: ownersKeys,
  requestNotificationsSent: ownersKeys,
  matchCreated: partiesKeys,
  matchConfirmed: partiesKeys,
  matchCancelled: partiesKeys,
  matchCompleted: partiesKeys,
  matchExpired: partiesKeys,
  matchPaymentMarked: partiesKeys,
  matchCompletionReminded: partiesKeys,
  disputeOpened: partiesKeys,
  disputeResolved: partiesKeys,
  // A chat message changes no request or match: chatMessagePosted moves nothing.
  userRegistered: ({ userId }, em) => cardChangedKeys(em, userId),
  userProfileUpdated: ({ userId }, em) => cardChangedKeys(em, userId),
  // An older rating than the one the card shows changes nothing (events/consumers.ts).
  ratingSubmitted: async ({ toUserId, toUserCount }, em) => {
    const trader = await em.findOne(Trader, { userId: toUserId }, { fields: ['ratingCount'] });
    return trader?.ratingCount === toUserCount ? cardChangedKeys(em, toUserId) : [];
  },
  // A deleted user's card; the trades their deletion ended move their parties' keys by their own events.
  userDeleted: ({ userId }, em) => cardChangedKeys(em, userId),
  local: {
    blockChanged: ({ blockerId, blockedId }) => [ExchangeVersions.viewer(blockerId), ExchangeVersions.viewer(blockedId)],
    cardsFilled: ({ userIds }) => changedKeys(userIds),
  },
};
