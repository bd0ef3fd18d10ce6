/**
 * The document an ID verification request waits for: a photo or scan of the user's passport or ID card, PNG, JPEG or
 * PDF known by its content (never by its name). It is the most sensitive file Puente holds, so its bytes are sealed
 * (AES-256-GCM) with a key ring of its own, ID_DOCUMENT_KEYS, bound to its user and request: sealed bytes copied to
 * another row do not open. They are kept in identity's own database (one file per request, at most 10 MB, a handful
 * of requests a day): no other store to secure, back up and erase from.
 *
 * Retention: the file is deleted as soon as an admin decides the request, approved or rejected; what is known of it
 * (name, type, size, when it came and went) stays with the request as the record of what was reviewed. Puente never
 * holds its users' money (each side pays the other's bank account), so no anti-money-laundering rule obliges it to
 * keep copies of identity documents; the decision, who made it and when is the record of the check, and a copy kept
 * "just in case" is only a risk to the person in it (UK GDPR's data minimisation and storage limitation). A regulated
 * operator that must keep them (five years under the Money Laundering Regulations 2017) changes purgeIdDocument alone.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { fileTypeFromBuffer } from 'file-type';
import { IdDocumentType, type IdDocument as IdDocumentView } from '@puente/contracts';
import { openBytes, sealBytes, sealingKeys, type SealingKeys, type UploadedFile } from '@puente/platform';

export const IdDocumentSchema = defineEntity({
  name: 'IdDocument',
  tableName: 'id_document',
  properties: {
    id: p.integer().primary().autoincrement(),
    /** The ID verification request it was uploaded for: one document each. */
    requestId: p.integer().unique(),
    userId: p.integer().index(),
    /** The name it was sent with, made safe to show and to put in a header. */
    fileName: p.text(),
    /** What its content is (not what its name says). */
    contentType: p.enum(IdDocumentType.options),
    size: p.integer(),
    /** The sealed bytes; null once the request is decided and the file deleted. Loaded only when asked for. */
    sealed: p.blob().nullable().lazy(),
    uploadedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});
export class IdDocument extends IdDocumentSchema.class {}
IdDocumentSchema.setClass(IdDocument);

/** The keys from ID_DOCUMENT_KEYS (required in production; a key of this process alone otherwise, for tests). */
export const idDocumentKeys = (value: string | undefined): SealingKeys =>
  sealingKeys({ name: 'ID_DOCUMENT_KEYS', value, ephemeral: true });

const aad = (userId: number, requestId: number) => `id-document:${userId}:${requestId}`;

/** The type the bytes are, when it is one an ID document may be; null for anything else, whatever its name. */
export async function idDocumentType(bytes: Buffer): Promise<IdDocumentType | null> {
  const found = await fileTypeFromBuffer(bytes);
  const type = IdDocumentType.safeParse(found?.mime);
  return type.success ? type.data : null;
}

const EXTENSIONS: Record<IdDocumentType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'application/pdf': 'pdf' };
const NAME_MAX = 120;

/** The name as sent, without a path, control characters, quotes or backslashes, at most 120 characters. */
export function safeFileName(sent: string, type: IdDocumentType): string {
  const base = sent.split(/[/\\]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f"\\]|[\p{Cs}]/gu, '').replace(/\s+/g, ' ').trim();
  return [...clean].slice(0, NAME_MAX).join('') || `id-document.${EXTENSIONS[type]}`;
}

/** Records the document of the request, its bytes sealed, in the caller's transaction. */
export function storeIdDocument(
  tx: EntityManager, keys: SealingKeys, request: { id: number; userId: number }, upload: UploadedFile, type: IdDocumentType, at: Date,
): IdDocument {
  return tx.create(IdDocument, {
    requestId: request.id, userId: request.userId, fileName: safeFileName(upload.fileName, type), contentType: type,
    size: upload.bytes.length, sealed: sealBytes(keys, aad(request.userId, request.id), upload.bytes), uploadedAt: at, deletedAt: null,
  });
}

/** The document of a request with its bytes as they were sent; null when there is none or it was deleted. */
export async function openIdDocument(em: EntityManager, keys: SealingKeys, requestId: number): Promise<{ document: IdDocument; bytes: Buffer } | null> {
  const document = await em.findOne(IdDocument, { requestId, deletedAt: null }, { populate: ['sealed'] });
  if (!document?.sealed) return null;
  return { document, bytes: openBytes(keys, aad(document.userId, requestId), Buffer.from(document.sealed)) };
}

/** The request has been decided: its file is deleted, what is known of it stays (see the retention note above). */
export async function purgeIdDocument(tx: EntityManager, requestId: number, at: Date): Promise<void> {
  await tx.nativeUpdate(IdDocument, { requestId, deletedAt: null }, { sealed: null, deletedAt: at });
}

export function idDocumentView(d: IdDocument): IdDocumentView {
  return {
    fileName: d.fileName, contentType: d.contentType, size: d.size,
    uploadedAt: d.uploadedAt.toISOString(), deletedAt: d.deletedAt ? d.deletedAt.toISOString() : null,
  };
}

/** What is known of the documents of these requests (never their bytes), by request id. */
export async function idDocumentsOf(em: EntityManager, requestIds: readonly number[]): Promise<Map<number, IdDocumentView>> {
  if (requestIds.length === 0) return new Map();
  const documents = await em.find(IdDocument, { requestId: { $in: [...requestIds] } });
  return new Map(documents.map((d) => [d.requestId, idDocumentView(d)]));
}
