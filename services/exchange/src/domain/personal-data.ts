/**
 * What the exchange service holds of a user, for their data download and their account's deletion. Completed
 * exchanges stay (their partner's history and trade record are made of them), showing the person as a deleted user;
 * what was still open to trade ends: their open and matched requests are cancelled (a pending match on one with it),
 * and their pending acceptances of others' requests withdrawn, each announced as a cancel by them would be. Their
 * chat messages and the files they attached are erased, and the system messages name them as a deleted user. Their
 * disputes stay (the other party's record counts them) without the statements they wrote or the sanctions they got.
 */
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { DeletedUser, type EventEnvelope, type ExchangePersonalData } from '@puente/contracts';
import { changed, type Changed } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { blockedBy, liftBlocks } from './blocks.ts';
import { ChatMessage, chatViews, eraseFromChats } from './chat.ts';
import { disputesInPersonalData, eraseFromDisputes } from './disputes.ts';
import type { ChatFiles } from './chat-attachments.ts';
import { historyOf } from './history.ts';
import { cancelTrade, lockTrade } from './trade.ts';
import { cancelRequest } from './request-transitions.ts';
import { traderRow } from './traders.ts';
import { matchViews, requestSummary } from './views.ts';

const partyOf = (userId: number) => ({ $or: [{ requesterId: userId }, { matcherId: userId }] });

export async function personalDataOf(em: EntityManager, userId: number): Promise<ExchangePersonalData> {
  const requests = await em.find(ExchangeRequest, { userId }, { orderBy: { id: 'asc' } });
  const matches = await em.find(ExchangeMatch, partyOf(userId), { orderBy: { id: 'asc' } });
  const completed = matches.filter((m) => m.status === 'completed');
  return {
    requests: requests.map(requestSummary), matches: await matchViews(em, matches), history: await historyOf(em, userId, completed),
    blockedUsers: await blockedBy(em, userId),
    // An attachment's name, type and size come with its message; its bytes only from the chat.
    chatMessages: await chatViews(em, await em.find(ChatMessage, { authorId: userId }, { orderBy: { id: 'asc' } })),
    disputes: await disputesInPersonalData(em, userId),
  };
}

/** The user's matches still pending or confirmed. */
export async function matchesInProgress(em: EntityManager, userId: number): Promise<number> {
  return em.count(ExchangeMatch, { status: { $in: ['pending', 'confirmed'] }, ...partyOf(userId) });
}

/**
 * Anonymises the user's card and ends what they had open, in the caller's transaction, as of `at` (the deletion).
 * Returns what it caused: the trades' events and the blocks it lifted. A confirmed match is left as it
 * is: identity refuses a deletion while one exists, so only one confirmed in the moment between could be found here,
 * and its partner may still complete it.
 */
export async function eraseUser(tx: EntityManager, files: ChatFiles, userId: number, at: Date): Promise<Changed<void>> {
  const trader = await traderRow(tx, userId);
  Object.assign(trader, { firstName: DeletedUser.firstName, lastName: DeletedUser.lastName, profileImageUrl: null, profileAsOf: at, deletedAt: at });
  // Whom they blocked is their data; blocks of them by others stay (a deleted user trades no more anyway).
  const lifted = await liftBlocks(tx, userId);
  await eraseFromChats(tx, files, userId, DeletedUser.firstName);
  await eraseFromDisputes(tx, userId);
  const events: EventEnvelope[] = [];
  const requests = await tx.find(ExchangeRequest, { userId, status: { $in: ['open', 'matched'] } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  for (const request of requests) {
    const pending = await tx.findOne(ExchangeMatch, { requestId: request.id, status: 'pending' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (pending) events.push(...await cancelTrade(tx, pending, request, userId, 'request-cancelled', at));
    events.push(...cancelRequest(request));
  }
  for (const match of await tx.find(ExchangeMatch, { matcherId: userId, status: 'pending' })) {
    const trade = await lockTrade(tx, match);
    if (trade.match.status !== 'pending') continue;
    events.push(...await cancelTrade(tx, trade.match, trade.request, userId, 'withdrawn', at));
  }
  await tx.flush();
  return changed(undefined, ...events, ...lifted.local);
}
