/**
 * A match's chat: the parties' messages and the system messages the service adds at each change of the match,
 * returning their events to be written in the transaction of that change. Every message is published (chatMessagePosted) for the gateway to
 * deliver live to the two parties; its id lets a client drop a repeat.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import {
  CHAT_OPEN_DAYS_AFTER_COMPLETION, RECEIPT_WINDOW_HOURS, ChatMessageKind, ChatSystemEvent, type ChatMessage as ChatMessageView, type EventEnvelope,
} from '@puente/contracts';
import { changed, conflict, makeEvent, type Changed } from '@puente/platform';
import type { ExchangeMatch } from './exchange-match.ts';
import { Trader } from './traders.ts';
import { attachmentsById, attachmentView, eraseAttachmentsOf, type ChatAttachment, type ChatFiles } from './chat-attachments.ts';

export const ChatMessageSchema = defineEntity({
  name: 'ChatMessage',
  tableName: 'chat_message',
  properties: {
    id: p.integer().primary().autoincrement(),
    matchId: p.integer(),
    kind: p.enum(ChatMessageKind.options),
    /** The party who wrote it; null for a system message. */
    authorId: p.integer().nullable(),
    body: p.text(),
    /** An attachment message's file (domain/chat-attachments.ts). */
    attachmentId: p.integer().nullable(),
    event: p.enum(ChatSystemEvent.options).nullable(),
    /** Who made the change a system message announces (null for an expiry). */
    subjectId: p.integer().nullable(),
    createdAt: p.datetime(),
  },
  indexes: [{ name: 'chat_message_match_id_id_index', properties: ['matchId', 'id'] }],
  // An attachment message has its file, and no other message has one.
  checks: [{ name: 'chat_message_attachment_check', expression: `("kind" = 'attachment') = ("attachment_id" is not null)` }],
});
export class ChatMessage extends ChatMessageSchema.class {}
ChatMessageSchema.setClass(ChatMessage);

const DAY_MS = 86_400_000;
export const CHAT_CLOSED = `This chat is closed: messages can be posted until ${CHAT_OPEN_DAYS_AFTER_COMPLETION} days after the exchange is completed`;

/** Whether the parties may still post: from acceptance while the trade goes on, and for a while after completion. */
export function assertChatOpen(match: Pick<ExchangeMatch, 'status' | 'completedAt'>, now: Date): void {
  const open = match.status === 'pending' || match.status === 'confirmed'
    || (match.status === 'completed' && !!match.completedAt && now.getTime() < match.completedAt.getTime() + CHAT_OPEN_DAYS_AFTER_COMPLETION * DAY_MS);
  if (!open) throw conflict(CHAT_CLOSED, 'chat_closed');
}

/** A message as the API shows it; an attachment message with its file's (see chatViews for a list). */
export function chatView(m: ChatMessage, attachment: ChatAttachment | null = null): ChatMessageView {
  return {
    id: m.id, matchId: m.matchId, kind: m.kind, authorId: m.authorId ?? null, body: m.body,
    attachment: attachment ? attachmentView(attachment) : null,
    event: m.event ?? null, subjectId: m.subjectId ?? null, createdAt: m.createdAt.toISOString(),
  };
}

/** Messages as the API shows them, with their attachments. */
export async function chatViews(em: EntityManager, messages: readonly ChatMessage[]): Promise<ChatMessageView[]> {
  const attachments = await attachmentsById(em, messages.flatMap((m) => (m.attachmentId ? [m.attachmentId] : [])));
  return messages.map((m) => chatView(m, (m.attachmentId && attachments.get(m.attachmentId)) || null));
}

type Fields = Pick<ChatMessage, 'kind' | 'body'> & Partial<Pick<ChatMessage, 'authorId' | 'event' | 'subjectId'>>;

/** Stores a message (with its attachment, already stored) in the caller's transaction; returns it with its event. */
export async function addToChat(
  tx: EntityManager, match: ExchangeMatch, fields: Fields, at: Date, attachment: ChatAttachment | null = null,
): Promise<Changed<ChatMessage>> {
  const message = tx.create(ChatMessage, {
    matchId: match.id, authorId: null, event: null, subjectId: null, ...fields, attachmentId: attachment?.id ?? null, createdAt: at,
  });
  await tx.flush(); // the id goes into the event
  return changed(message, makeEvent('chatMessagePosted', match.id, {
    matchId: match.id, requestId: match.requestId, requesterId: match.requesterId, matcherId: match.matcherId, message: chatView(message, attachment),
  }));
}

const SENTENCES: Record<ChatSystemEvent, (name: string) => string> = {
  accepted: (name) => `${name} accepted the exchange request`,
  confirmed: (name) => `${name} approved the match: bank details are shared`,
  paid: (name) => `${name} marked their payment sent: check your bank`,
  completed: (name) => `${name} marked the exchange completed`,
  cancelled: (name) => `${name} called off the match`,
  expired: () => 'The match expired: it was not approved in time',
  disputed: (name) => `${name} opened a dispute: the exchange is on hold until an admin resolves it`,
  dispute_resolved: () => 'An admin resolved the dispute',
  // Said by the party, or the receipt window passed without an answer (it counts as received): one sentence for both.
  received: (name) => `${name}'s money is marked received`,
  receipt_asked: (name) => `${name} is asked whether the money due to them arrived (${RECEIPT_WINDOW_HOURS} hours to answer)`,
};

/** The system message of a change to the match, made by `subjectId` (none for an expiry); returns its event. */
export async function announceInChat(
  tx: EntityManager, match: ExchangeMatch, event: ChatSystemEvent, subjectId: number | null, at: Date,
): Promise<EventEnvelope[]> {
  const trader = subjectId === null ? null : await tx.findOne(Trader, { userId: subjectId }, { fields: ['firstName'] });
  const body = SENTENCES[event](trader?.firstName || 'A party');
  return [...(await addToChat(tx, match, { kind: 'system', body, event, subjectId }, at)).events];
}

/**
 * A deleted user's words and files leave the chats they were in (the files' bytes leave the storage); the system
 * messages name them as the deleted user.
 */
export async function eraseFromChats(tx: EntityManager, files: ChatFiles, userId: number, deletedName: string): Promise<void> {
  await tx.nativeDelete(ChatMessage, { authorId: userId });
  await eraseAttachmentsOf(tx, files, userId);
  for (const event of ChatSystemEvent.options) {
    await tx.nativeUpdate(ChatMessage, { subjectId: userId, event }, { body: SENTENCES[event](deletedName) });
  }
}
