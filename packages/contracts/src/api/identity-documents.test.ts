import { describe, expect, it } from 'vitest';
import {
  AdminVerificationRequest, ID_DOCUMENT_MAX_BYTES, OwnVerificationRequest, Routes, VerificationRequestListQuery,
  VerificationRequestRecord, formRefusals,
} from './index.ts';

const now = '2026-11-28T10:00:00.000Z';
const document = { fileName: 'passport.jpg', contentType: 'image/jpeg', size: 2048, uploadedAt: now, deletedAt: null } as const;

describe('an ID verification\'s document', () => {
  it('is uploaded as a form of one file, at most 10 MB, by its owner', () => {
    const route = Routes.identity.uploadIdDocument;
    expect(route).toMatchObject({ method: 'POST', path: '/api/users/verification/id/document', access: 'user', multipart: { file: 'file', maxBytes: ID_DOCUMENT_MAX_BYTES } });
    expect(formRefusals(route.multipart).tooLarge.message).toBe('The file must be at most 10 MB');
  });

  it('is read by admins only, as a PNG, JPEG or PDF', () => {
    expect(Routes.identity.verificationDocument).toMatchObject({ access: 'admin', produces: ['image/png', 'image/jpeg', 'application/pdf'] });
  });

  it('is described beside the request, in the review, the user\'s own list and their data download', () => {
    const item = { id: 1, userId: 2, type: 'id', status: 'pending', createdAt: now, decidedAt: null, firstName: 'Ana', lastName: 'Rojas', email: 'ana@example.com', document };
    expect(AdminVerificationRequest.parse(item)).toEqual(item);
    expect(AdminVerificationRequest.safeParse({ ...item, document: { ...document, contentType: 'image/gif' } }).success).toBe(false);
    expect(OwnVerificationRequest.parse({ id: 1, type: 'id', status: 'awaiting_document', createdAt: now, document: null }).status).toBe('awaiting_document');
    expect(VerificationRequestRecord.parse(item)).toEqual({ id: 1, type: 'id', status: 'pending', createdAt: now, decidedAt: null, document });
  });

  it('keeps the review list to requests ready for it by default', () => {
    expect(VerificationRequestListQuery.parse({}).status).toBe('pending');
    expect(VerificationRequestListQuery.parse({ status: 'awaiting_document' }).status).toBe('awaiting_document');
  });
});
