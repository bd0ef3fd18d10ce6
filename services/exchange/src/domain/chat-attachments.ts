/**
 * Files attached to a match's chat (proof of payment): PNG, JPEG or PDF, known by their content, never by their
 * name. Proofs show account numbers, so the bytes are sealed (AES-256-GCM, as bank details are) before they leave
 * the process for the storage (storage/), bound to their match and key: sealed bytes copied elsewhere do not open.
 * The rows here keep what the chat shows (name, type, size) and where the bytes are.
 */
import { randomUUID } from 'node:crypto';
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { fileTypeFromBuffer } from 'file-type';
import { ChatAttachmentType, type ChatAttachment as ChatAttachmentView } from '@puente/contracts';
import { openBytes, sealBytes, type SealingKeys, type UploadedFile } from '@puente/platform';
import type { AttachmentStorage } from '../storage/attachment-storage.ts';

export const ChatAttachmentSchema = defineEntity({
  name: 'ChatAttachment',
  tableName: 'chat_attachment',
  properties: {
    id: p.integer().primary().autoincrement(),
    matchId: p.integer(),
    /** The party who attached it. */
    authorId: p.integer().index(),
    /** The name it was sent with, made safe to show and to put in a header. */
    fileName: p.text(),
    /** What its content is (not what its name says). */
    contentType: p.enum(ChatAttachmentType.options),
    size: p.integer(),
    /** Where its sealed bytes are in the storage. */
    storageKey: p.text().unique(),
    createdAt: p.datetime(),
  },
});
export class ChatAttachment extends ChatAttachmentSchema.class {}
ChatAttachmentSchema.setClass(ChatAttachment);

/** Where attachments' bytes go and the keys that seal them. */
export interface ChatFiles {
  storage: AttachmentStorage;
  keys: SealingKeys;
}

export function attachmentView(a: ChatAttachment): ChatAttachmentView {
  return { id: a.id, fileName: a.fileName, contentType: a.contentType, size: a.size };
}

/** The type the bytes are, when it is one a chat takes; null for anything else, whatever its name. */
export async function attachmentType(bytes: Buffer): Promise<ChatAttachmentType | null> {
  const found = await fileTypeFromBuffer(bytes);
  const type = ChatAttachmentType.safeParse(found?.mime);
  return type.success ? type.data : null;
}

const EXTENSIONS: Record<ChatAttachmentType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'application/pdf': 'pdf' };
const NAME_MAX = 120;

/**
 * The name as sent, without a path, control characters, quotes or backslashes, at most 120 characters; `proof.pdf`
 * (the content's extension) when nothing is left.
 */
export function safeFileName(sent: string, type: ChatAttachmentType): string {
  const base = sent.split(/[/\\]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f"\\]|[\p{Cs}]/gu, '').replace(/\s+/g, ' ').trim();
  return [...clean].slice(0, NAME_MAX).join('') || `proof.${EXTENSIONS[type]}`;
}

const aad = (matchId: number, storageKey: string) => `chat-attachment:${matchId}:${storageKey}`;

/**
 * Seals the bytes and puts them in the storage, then records the attachment in the caller's transaction (`record`).
 * The bytes go first so no row ever points at nothing; when the transaction fails they are deleted again.
 */
export async function storeAttachment<T>(
  files: ChatFiles, matchId: number, upload: UploadedFile, type: ChatAttachmentType,
  record: (fields: Pick<ChatAttachment, 'matchId' | 'fileName' | 'contentType' | 'size' | 'storageKey'>) => Promise<T>,
): Promise<T> {
  const storageKey = `matches/${matchId}/${randomUUID()}`;
  await files.storage.put(storageKey, sealBytes(files.keys, aad(matchId, storageKey), upload.bytes));
  try {
    return await record({ matchId, fileName: safeFileName(upload.fileName, type), contentType: type, size: upload.bytes.length, storageKey });
  } catch (err) {
    await files.storage.delete(storageKey).catch(() => {});
    throw err;
  }
}

/** The attachment's bytes as they were sent; null when the storage has none under its key. */
export async function openAttachment(files: ChatFiles, attachment: ChatAttachment): Promise<Buffer | null> {
  const sealed = await files.storage.get(attachment.storageKey);
  return sealed && openBytes(files.keys, aad(attachment.matchId, attachment.storageKey), sealed);
}

/** The attachments of these messages, by id. */
export async function attachmentsById(em: EntityManager, ids: readonly number[]): Promise<Map<number, ChatAttachment>> {
  if (ids.length === 0) return new Map();
  return new Map((await em.find(ChatAttachment, { id: { $in: [...ids] } })).map((a) => [a.id, a]));
}

/**
 * A deleted user's files leave the storage and the chats, in the caller's transaction. The bytes go first: should
 * the transaction fail, the rows are still there for the retry to find (deleting bytes twice is no error).
 */
export async function eraseAttachmentsOf(tx: EntityManager, files: ChatFiles, authorId: number): Promise<void> {
  const attachments = await tx.find(ChatAttachment, { authorId }, { fields: ['storageKey'] });
  for (const a of attachments) await files.storage.delete(a.storageKey);
  await tx.nativeDelete(ChatAttachment, { authorId });
}
