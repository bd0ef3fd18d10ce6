/**
 * An admin's read of a match's chat, or of one of its attachments (proof of payment), is recorded when the admin is
 * not a party and no dispute of the match is open: reading a disputed chat is how an admin resolves the dispute, and a
 * party reads their own chat; any other read of someone's private conversation leaves a trace. The event
 * (adminChatRead) is written with the read's transaction, before the answer leaves: a read that cannot be recorded
 * is not answered. The audit service keeps it and lists it on the admin page.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdminReadWhat, EventEnvelope } from '@puente/contracts';
import { changed, makeEvent, type Changed, type ServiceContext } from '@puente/platform';
import type { ExchangeMatch } from './exchange-match.ts';
import { Dispute } from './disputes.ts';
import { Trader } from './traders.ts';

export interface ChatRead {
  what: AdminReadWhat;
  attachmentId?: number;
}

export interface Reader { userId: number; admin: boolean }

const isParty = (match: Pick<ExchangeMatch, 'requesterId' | 'matcherId'>, userId: number) =>
  match.requesterId === userId || match.matcherId === userId;

/** Whether a read by `reader` is one to record, before anything is looked up: an admin's, not a party's. */
export const mayNeedRecord = (match: Pick<ExchangeMatch, 'requesterId' | 'matcherId'>, reader: Reader): boolean =>
  reader.admin && !isParty(match, reader.userId);

/**
 * The read's consequence: the adminChatRead event when the reader is an admin who is not a party and the match has no
 * open dispute, else nothing.
 */
export function chatReadBy(
  match: Pick<ExchangeMatch, 'id' | 'requesterId' | 'matcherId'>, reader: Reader & { name: string }, read: ChatRead,
  disputeOpen: boolean, at: Date,
): Changed<undefined> {
  if (!mayNeedRecord(match, reader) || disputeOpen) return changed(undefined);
  return changed(undefined, makeEvent('adminChatRead', match.id, {
    adminId: reader.userId, adminName: reader.name.slice(0, 200), matchId: match.id, what: read.what,
    ...(read.attachmentId === undefined ? {} : { attachmentId: read.attachmentId }), at: at.toISOString(),
  }));
}

/** The admin's name as the exchange knows it (its traders projection), '' when it does not. */
async function nameOf(em: EntityManager, userId: number): Promise<string> {
  const trader = await em.findOne(Trader, { userId });
  return trader ? `${trader.firstName} ${trader.lastName}`.trim() : '';
}

/** Records the read when chatReadBy says so (a party's read costs nothing: no transaction). */
export async function recordChatRead(
  ctx: ServiceContext, match: ExchangeMatch, reader: Reader, read: ChatRead, at: Date,
): Promise<readonly EventEnvelope[]> {
  if (!mayNeedRecord(match, reader)) return [];
  return ctx.change(async (tx) => {
    const disputeOpen = (await tx.count(Dispute, { matchId: match.id, status: 'open' })) > 0;
    const caused = chatReadBy(match, { ...reader, name: disputeOpen ? '' : await nameOf(tx, reader.userId) }, read, disputeOpen, at);
    return changed(caused.events, ...caused.events);
  });
}
