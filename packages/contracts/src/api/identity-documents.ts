/**
 * The identity document an ID verification needs: POST /api/users/verification/id makes the request, which waits
 * ('awaiting_document') until its owner uploads a photo or scan of their passport or ID card (PNG, JPEG or PDF,
 * checked by content); only then does it reach the admins' review, which shows the document beside it. The signed-in
 * user's open requests (GET /api/users/me/verification-requests) tell the verification dialog where each one is.
 */
import { z } from 'zod';
import { IsoDateTime } from './common.ts';

/** The files an identity document may be: checked by their content, whatever their name says. */
export const IdDocumentType = z.enum(['image/png', 'image/jpeg', 'application/pdf']);
export type IdDocumentType = z.infer<typeof IdDocumentType>;

/** A phone's photo of a passport page is often 3-8 MB: room for one, not for a video. */
export const ID_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** A file of another type, whatever its name says: 415 (the web app checks the name first, with the same words). */
export const ID_DOCUMENT_TYPE_REFUSED = { code: 'id_document_type_not_allowed', message: 'Only PNG, JPEG or PDF files can be uploaded' } as const;

/** No ID verification request of the caller's waits for a document: 409. */
export const ID_DOCUMENT_NOT_AWAITED = {
  code: 'id_document_not_awaited',
  message: 'Ask for ID verification first: no ID verification request of yours is waiting for a document.',
} as const;

/**
 * What is known of a request's document: its name, type, size and when it came. `deletedAt` is set once the request
 * is decided: the file itself is deleted then (identity's domain/id-documents.ts says why), this record stays.
 */
export const IdDocument = z.object({
  fileName: z.string(),
  contentType: IdDocumentType,
  /** In bytes. */
  size: z.number().int().positive(),
  uploadedAt: IsoDateTime,
  deletedAt: IsoDateTime.nullable(),
});
export type IdDocument = z.infer<typeof IdDocument>;

/** A document's bytes, answered with its own content type. */
export const IdDocumentFile = z.string().meta({ format: 'binary' });
