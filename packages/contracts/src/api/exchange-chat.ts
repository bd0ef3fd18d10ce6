/**
 * In-exchange chat: the two parties of a match write to each other from acceptance until 30 days after completion;
 * the exchange service adds a system message at each change of the match. Calls: /api/exchange-matches/{id}/messages,
 * PUT /api/exchange-matches/{id}/paid.
 */
import { z } from 'zod';
import { Id, IsoDateTime, PaginationQuery } from './common.ts';

/** Days after completion during which the parties may still post; the chat is read-only after that. */
export const CHAT_OPEN_DAYS_AFTER_COMPLETION = 30;
export const CHAT_MESSAGE_MAX = 2000;

/** A party's words, or the service telling both what happened to the match. */
export const ChatMessageKind = z.enum(['text', 'system']);
export type ChatMessageKind = z.infer<typeof ChatMessageKind>;

/** What a system message announces; `subjectId` is who did it (absent for an expiry and a dispute's resolution, an admin's). */
export const ChatSystemEvent = z.enum(['accepted', 'confirmed', 'paid', 'completed', 'cancelled', 'expired', 'disputed', 'dispute_resolved']);
export type ChatSystemEvent = z.infer<typeof ChatSystemEvent>;

/**
 * A chat message. `body` is the party's text, or for a system message its English sentence (the web app shows its
 * own words for `event`). `authorId` is null for a system message.
 */
export const ChatMessage = z.object({
  id: Id,
  matchId: Id,
  kind: ChatMessageKind,
  authorId: Id.nullable(),
  body: z.string(),
  event: ChatSystemEvent.nullable(),
  subjectId: Id.nullable(),
  createdAt: IsoDateTime,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatMessageList = z.array(ChatMessage);
export type ChatMessageList = z.infer<typeof ChatMessageList>;

const AFTER_INVALID = 'after must be a message id';
/**
 * GET /api/exchange-matches/{id}/messages: oldest first. A chat polls with `after` (the last id it holds) and gets
 * only what is new; X-Total-Count counts the messages after `after`.
 */
export const ChatMessagesQuery = PaginationQuery.extend({
  after: z.coerce.number({ error: AFTER_INVALID }).int(AFTER_INVALID).min(0, AFTER_INVALID).optional(),
});
export type ChatMessagesQuery = z.infer<typeof ChatMessagesQuery>;

const TEXT_REQUIRED = 'Message is required';
const TEXT_TOO_LONG = `Message must be at most ${CHAT_MESSAGE_MAX} characters`;
const TEXT_UNSENDABLE = 'Message contains characters that cannot be sent';
// PostgreSQL refuses NUL and lone surrogates in text; other control characters have no place in a chat line.
const UNSENDABLE = /[\p{Cs}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u;

/** POST /api/exchange-matches/{id}/messages: text, trimmed, 1 to 2000 characters. */
export const ChatMessageCreate = z.object({
  text: z.string({ error: TEXT_REQUIRED }).trim().min(1, TEXT_REQUIRED).max(CHAT_MESSAGE_MAX, TEXT_TOO_LONG)
    .refine((t) => !UNSENDABLE.test(t), TEXT_UNSENDABLE),
});
export type ChatMessageCreate = z.infer<typeof ChatMessageCreate>;

/** Live message on /ws: a chat message of one of the caller's matches (sent to its two parties only). */
export const ChatLiveMessage = z.object({ type: z.literal('chat_message'), message: ChatMessage });
export type ChatLiveMessage = z.infer<typeof ChatLiveMessage>;
