/**
 * In-exchange chat: the two parties of a match write to each other from acceptance until 30 days after completion;
 * the exchange service adds a system message at each change of the match. Calls: /api/exchange-matches/{id}/messages,
 * PUT /api/exchange-matches/{id}/paid.
 */
import { z } from 'zod';
import { Id, idParam, IsoDateTime, PaginationQuery, ValidationMessages } from './common.ts';

/** Days after completion during which the parties may still post; the chat is read-only after that. */
export const CHAT_OPEN_DAYS_AFTER_COMPLETION = 30;
export const CHAT_MESSAGE_MAX = 2000;

/** A party's words, a party's file (proof of payment) with an optional caption, or the service telling both what happened. */
export const ChatMessageKind = z.enum(['text', 'attachment', 'system']);
export type ChatMessageKind = z.infer<typeof ChatMessageKind>;

/**
 * What a system message announces; `subjectId` is who did it (absent for an expiry and a dispute's resolution, an
 * admin's): `received` a party's 'I received' (or the receipt window passing for them), `receipt_asked` the party
 * asked whether they received their money when the other completed the match (subjectId: the one asked).
 */
export const ChatSystemEvent = z.enum([
  'accepted', 'confirmed', 'paid', 'completed', 'cancelled', 'expired', 'disputed', 'dispute_resolved', 'received', 'receipt_asked',
]);
export type ChatSystemEvent = z.infer<typeof ChatSystemEvent>;

/** The files a party may attach: checked by their content, whatever their name says. */
export const ChatAttachmentType = z.enum(['image/png', 'image/jpeg', 'application/pdf']);
export type ChatAttachmentType = z.infer<typeof ChatAttachmentType>;
export const CHAT_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;

/** A file attached to a chat message: GET /api/exchange-matches/{matchId}/attachments/{id} answers its bytes. */
export const ChatAttachment = z.object({
  id: Id,
  fileName: z.string(),
  contentType: ChatAttachmentType,
  /** In bytes. */
  size: z.number().int().positive(),
});
export type ChatAttachment = z.infer<typeof ChatAttachment>;

/**
 * A chat message. `body` is the party's text, an attachment's caption (may be empty), or for a system message its
 * English sentence (the web app shows its own words for `event`). `authorId` is null for a system message;
 * `attachment` is set on an attachment message only.
 */
export const ChatMessage = z.object({
  id: Id,
  matchId: Id,
  kind: ChatMessageKind,
  authorId: Id.nullable(),
  body: z.string(),
  attachment: ChatAttachment.nullable(),
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

const CAPTION_TOO_LONG = `Caption must be at most ${CHAT_MESSAGE_MAX} characters`;
/**
 * POST /api/exchange-matches/{id}/attachments, multipart/form-data: the file (`file`: PNG, JPEG or PDF, at most
 * 5 MB) and these fields: an optional caption, trimmed.
 */
export const ChatAttachmentCreate = z.object({
  caption: z.string().trim().max(CHAT_MESSAGE_MAX, CAPTION_TOO_LONG).refine((t) => !UNSENDABLE.test(t), TEXT_UNSENDABLE).default(''),
});
export type ChatAttachmentCreate = z.infer<typeof ChatAttachmentCreate>;

/** A file of another type, whatever its name says: 415 (the web app checks the name first, with the same words). */
export const ATTACHMENT_TYPE_REFUSED = { code: 'attachment_type_not_allowed', message: 'Only PNG, JPEG or PDF files can be attached' } as const;

const ATTACHMENT_ID_INVALID = 'Invalid attachment ID';
/** Route params of GET /api/exchange-matches/{id}/attachments/{attachmentId}. */
export const ChatAttachmentParams = z.object({ id: idParam(ValidationMessages.exchangeMatchIdInvalid), attachmentId: idParam(ATTACHMENT_ID_INVALID) });
export type ChatAttachmentParams = z.infer<typeof ChatAttachmentParams>;

/** An attachment's bytes, answered with its own content type. */
export const ChatAttachmentFile = z.string().meta({ format: 'binary' });

/** Live message on /ws: a chat message of one of the caller's matches (sent to its two parties only). */
export const ChatLiveMessage = z.object({ type: z.literal('chat_message'), message: ChatMessage });
export type ChatLiveMessage = z.infer<typeof ChatLiveMessage>;
