/**
 * The versions behind the exchange service's polled lists (ExchangeVersions in @puente/contracts; platform
 * http/versions.ts): `market` — every open request and its poster's card, one list for everyone without blocks —,
 * `kept:viewer:<id>` — what a user's blocks hide from their market, a kept key (set only for users in a block,
 * keptViewerKeys in blocks.ts) —, `requests:<id>` — a user's own requests, with their
 * card — and `matches:<id>` — the matches they are a party of, each with its request and the matcher's name. The
 * table says which keys each event and local change moves: those of the lists that show what changed, and no other
 * (versions-after-*.test.ts walk every transition), as far as the event tells. The platform bumps them once the
 * change or the consumed event is committed; they are evaluated in its transaction, after the change.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { completionRate, ExchangeVersions, type EventPayload } from '@puente/contracts';
import { localChanges, qualifiedTable, type VersionTable } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { Trader } from './traders.ts';

const { market, viewer, ownRequests, ownMatches } = ExchangeVersions;

/** The matches lists showing the request (with its status): its owner's and every matcher's it ever had. */
async function matchesShowing(em: EntityManager, requestId: number, requesterId: number): Promise<string[]> {
  const matches = await em.find(ExchangeMatch, { requesterId, requestId }, { fields: ['matcherId'] });
  return matches.length === 0 ? [] : [ownMatches(requesterId), ...matches.map((m) => ownMatches(m.matcherId))];
}

const placeholders = (ids: readonly number[]) => ids.map(() => '?').join(', ');

/**
 * The lists showing these users' cards: the market while one has an open request, each one's own requests once
 * they have any; `named`, the matches showing their names too (those they accepted, on both sides).
 */
async function cardKeys(em: EntityManager, userIds: readonly number[], named: boolean): Promise<string[]> {
  if (userIds.length === 0) return [];
  await em.flush(); // the rows as the change left them
  const posters = await em.execute<{ user_id: number; open: boolean }[]>(
    `select user_id, bool_or(status = 'open') as open from ${qualifiedTable(em, ExchangeRequest)}
      where user_id in (${placeholders(userIds)}) group by user_id`, [...userIds]);
  const accepted = named ? await em.execute<{ matcher_id: number; requester_id: number }[]>(
    `select distinct matcher_id, requester_id from ${qualifiedTable(em, ExchangeMatch)} where matcher_id in (${placeholders(userIds)})`, [...userIds]) : [];
  return [
    ...(posters.some((p) => p.open) ? [market] : []),
    ...posters.map((p) => ownRequests(p.user_id)),
    ...accepted.flatMap((m) => [ownMatches(m.matcher_id), ownMatches(m.requester_id)]),
  ];
}

/** The users whose card one more confirmed match changed: the completion rate, unless it stays as shown (0 % of one, 0 % of two). */
async function rateChanged(em: EntityManager, userIds: number[]): Promise<number[]> {
  const rows = await em.execute<{ user_id: number; transaction_count: number; confirmed_count: number }[]>(
    `select user_id, transaction_count, confirmed_count from ${qualifiedTable(em, Trader)} where user_id in (${placeholders(userIds)})`, userIds);
  return rows.filter((t) => completionRate(t.transaction_count, t.confirmed_count) !== completionRate(t.transaction_count, t.confirmed_count - 1)).map((t) => t.user_id);
}

type RequestPayload = EventPayload<'requestCreated' | 'requestCancelled' | 'requestCompleted' | 'requestExpired'>;
type MatchPayload = EventPayload<'matchCreated' | 'matchConfirmed' | 'matchCancelled' | 'matchCompleted' | 'matchExpired'>;

/** A request entering or leaving the market: its owner's requests and the matches showing it. */
const requestMoved = async ({ requestId, userId }: RequestPayload, em: EntityManager) =>
  [market, ownRequests(userId), ...await matchesShowing(em, requestId, userId)];

/** A match's step, which its request follows: the requester's requests, the matches showing the request; the market when it (re)opens or is taken. */
const matchStep = (inMarket: boolean) => async ({ requestId, requesterId, matcherId }: MatchPayload, em: EntityManager) =>
  [...(inMarket ? [market] : []), ownRequests(requesterId), ownMatches(requesterId), ownMatches(matcherId), ...await matchesShowing(em, requestId, requesterId)];

/** A change to the match alone (a payment marked, a receipt, its dispute): both parties' matches. */
const matchOnly = ({ requesterId, matcherId }: { requesterId: number; matcherId: number }) => [ownMatches(requesterId), ownMatches(matcherId)];

type ExchangeChanges = {
  /** A block between these users was made or lifted (domain/blocks.ts). */
  blockChanged: { blockerId: number; blockedId: number };
  /** These users' cards were filled from identity's snapshot (jobs/backfill-projections.ts). */
  cardsFilled: { userIds: number[] };
};

export const local = localChanges<ExchangeChanges>();

/** Which polled keys each event the service publishes or consumes, and each local change, moves. */
export const exchangeVersions: VersionTable<ExchangeChanges> = {
  requestCreated: requestMoved,
  // A matched request may be cancelled too (its pending match with it): the event does not say which, the market moves.
  requestCancelled: requestMoved,
  requestCompleted: requestMoved,
  requestExpired: requestMoved,
  // No list shows when takers were last told (requestNotificationsSent), how many reminders were sent
  // (matchCompletionReminded), the chat (chatMessagePosted) or who read it (adminChatRead): they move nothing.
  matchCreated: matchStep(true),
  // Each party's completion rate counts one more confirmed match.
  matchConfirmed: async (p, em) => [...await matchStep(false)(p, em), ...await cardKeys(em, await rateChanged(em, [p.requesterId, p.matcherId]), false)],
  // Called off by a party, the request reopens; cancelled with it (by its owner, or an admin), requestCancelled says so or it was not in the market.
  matchCancelled: (p, em) => matchStep(p.reason === 'withdrawn' || p.reason === 'declined')(p, em),
  // Each party's trade record counts it.
  matchCompleted: async (p, em) => [...await matchStep(false)(p, em), ...await cardKeys(em, [p.requesterId, p.matcherId], false)],
  matchExpired: matchStep(true),
  matchPaymentMarked: matchOnly,
  disputeOpened: matchOnly,
  // Cancelled after completion (the match stays completed), each party's trade record gives the completion back.
  disputeResolved: async (p, em) => {
    const undone = p.outcome === 'cancelled' && (await em.findOne(ExchangeMatch, { id: p.matchId }, { fields: ['status'] }))?.status === 'completed';
    return [...matchOnly(p), ...undone ? await cardKeys(em, [p.requesterId, p.matcherId], false) : []];
  },
  matchReceiptConfirmed: matchOnly,
  matchReceiptAsked: matchOnly,
  userRegistered: ({ userId }, em) => cardKeys(em, [userId], true),
  // The whole profile comes, not what changed: a new picture alone moves the matches showing the name too.
  userProfileUpdated: ({ userId }, em) => cardKeys(em, [userId], true),
  // An older rating than the one the card shows changes nothing (events/consumers.ts).
  ratingSubmitted: async ({ toUserId, toUserCount }, em) => {
    const trader = await em.findOne(Trader, { userId: toUserId }, { fields: ['ratingCount'] });
    return trader?.ratingCount === toUserCount ? cardKeys(em, [toUserId], false) : [];
  },
  // A standing held or released by a dispute of a completed match: taken as it comes, so the card always moved.
  ratingStandingChanged: ({ userId }, em) => cardKeys(em, [userId], false),
  // A deleted user's card; what their deletion ended moves its own keys by its own events.
  userDeleted: ({ userId }, em) => cardKeys(em, [userId], true),
  local: {
    // Every block moves both viewer keys, even one that hides nothing now: by them the gateway knows whom it may
    // serve the shared market (gateway/src/polled.ts). Set so, a kept key stays set once its blocks are lifted: the
    // gateway then asks the service once whom it serves, and keptViewerKeys leaves it out after the store lost it.
    blockChanged: ({ blockerId, blockedId }) => [viewer(blockerId), viewer(blockedId)],
    cardsFilled: ({ userIds }, em) => cardKeys(em, userIds, true),
  },
};
