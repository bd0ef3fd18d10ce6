/**
 * ID verification needs a document: the request awaits it, its owner uploads a PNG, JPEG or PDF (checked by content,
 * at most 10 MB), sealed at rest with ID_DOCUMENT_KEYS; only then does the admins' review list it, with the document
 * beside it, which only admins open; deciding the request deletes the file. The data download lists what is known of
 * it, and deleting the account erases it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  AdminVerificationRequest, AdminVerificationRequestList, ErrorBody, IdentityPersonalData, OwnVerificationRequestList,
  VerificationRequestResponse,
} from '@puente/contracts';
import { openBytes, sealingKeys } from '@puente/platform';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { IdDocument } from './domain/id-documents.ts';
import { User } from './domain/user.ts';
import { eraseUser, personalDataOf } from './domain/personal-data.ts';
import { ADMIN, as, login, person, registered, startIdentity, type IdentityTestService } from './testing/helpers.ts';

/** A 1×1 PNG, a JPEG's first bytes and a one-line PDF: what file-type knows them by. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const TEN_MB = 10 * 1024 * 1024;
const KEYS = `d1:${randomBytes(32).toString('base64')}`;

/** A multipart/form-data body as a browser sends one: the file in the field `file` (or another). */
function form(fileName: string, data: Buffer | string, field = 'file') {
  const boundary = '----puente-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(data), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, type: `multipart/form-data; boundary=${boundary}` };
}

describeWithInfra(['postgres'], 'an ID verification\'s document', () => {
  const db = useFreshDatabase('identity_id_documents');
  let svc: IdentityTestService;
  let adminId: number;
  let admin: Record<string, string>;
  beforeAll(async () => {
    svc = await startIdentity(db.url, { ID_DOCUMENT_KEYS: KEYS });
    adminId = (await login(svc, ADMIN)).userId;
    admin = await as(svc, adminId, 'admin');
  });
  afterAll(async () => { await svc?.stop(); });

  const ask = async (userId: number, type = 'id') =>
    svc.app.inject({ method: 'POST', url: `/users/verification/${type}`, headers: await as(svc, userId) });
  const upload = async (headers: Record<string, string>, fileName: string, data: Buffer | string, field?: string) => {
    const body = form(fileName, data, field);
    return svc.app.inject({ method: 'POST', url: '/users/verification/id/document', headers: { ...headers, 'content-type': body.type }, payload: body.payload });
  };
  const review = async (status?: string) => {
    const res = await svc.app.inject({ method: 'GET', url: `/admin/verification-requests${status ? `?status=${status}` : ''}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    return AdminVerificationRequestList.parse(res.json());
  };
  const own = async (userId: number) => OwnVerificationRequestList.parse((await svc.app.inject({ method: 'GET', url: '/users/me/verification-requests', headers: await as(svc, userId) })).json());
  const readDocument = async (requestId: number, headers: Record<string, string> = admin) =>
    svc.app.inject({ method: 'GET', url: `/admin/verification-requests/${requestId}/document`, headers });
  const refused = (res: { statusCode: number; json(): unknown }, status: number) => {
    expect(res.statusCode).toBe(status);
    return ErrorBody.parse(res.json());
  };

  it('an ID request awaits its document and reaches the review only once it is uploaded', async () => {
    const ana = await registered(svc, person('ana'));
    const created = await ask(ana);
    expect(created.statusCode).toBe(201);
    const request = VerificationRequestResponse.parse(created.json());
    const awaiting = 'Upload a photo or scan of your passport or ID card: an admin reviews your request once it is in.';
    expect(request).toEqual({ message: awaiting, id: expect.any(Number), type: 'id', status: 'awaiting_document' });
    // Asking again answers the same request; phone and bank go straight to review, as before.
    expect(VerificationRequestResponse.parse((await ask(ana)).json())).toEqual(request);
    const phone = VerificationRequestResponse.parse((await ask(ana, 'phone')).json());
    expect(phone.status).toBe('pending');
    expect(await own(ana)).toEqual([
      { id: request.id, type: 'id', status: 'awaiting_document', createdAt: expect.any(String), document: null },
      { id: phone.id, type: 'phone', status: 'pending', createdAt: expect.any(String), document: null },
    ]);

    // Not in the review yet, and it cannot be decided.
    expect((await review()).map((r) => r.id)).toEqual([phone.id]);
    expect((await review('awaiting_document')).map((r) => r.id)).toEqual([request.id]);
    const early = await svc.app.inject({ method: 'POST', url: `/admin/verification-requests/${request.id}/approve`, headers: admin });
    expect(refused(early, 409).message).toBe('This verification request is still waiting for its document.');

    const uploaded = await upload(await as(svc, ana), ' passport   ana.png', PNG);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(VerificationRequestResponse.parse(uploaded.json())).toEqual({
      message: 'Your document is in. An admin will review your ID verification request.', id: request.id, type: 'id', status: 'pending',
    });
    const document = { fileName: 'passport ana.png', contentType: 'image/png', size: PNG.length, uploadedAt: expect.any(String), deletedAt: null };
    const [inReview] = (await review()).filter((r) => r.id === request.id);
    expect(AdminVerificationRequest.parse(inReview)).toMatchObject({ id: request.id, type: 'id', status: 'pending', userId: ana, document });
    expect((await own(ana))[0]).toMatchObject({ id: request.id, status: 'pending', document });
    // The request is no longer awaiting a document: a second one is refused.
    expect(refused(await upload(await as(svc, ana), 'again.png', PNG), 409).code).toBe('id_document_not_awaited');
  });

  it('takes a PNG, a JPEG or a PDF by its content, at most 10 MB, and only for an ID request awaiting one', async () => {
    const bea = await registered(svc, person('bea'));
    const headers = await as(svc, bea);
    expect(refused(await upload(headers, 'passport.png', PNG), 409)).toEqual({
      message: 'Ask for ID verification first: no ID verification request of yours is waiting for a document.', code: 'id_document_not_awaited',
    });
    await ask(bea);
    expect(refused(await upload(headers, 'passport.png', 'this is only text, not a picture'), 415))
      .toEqual({ message: 'Only PNG, JPEG or PDF files can be uploaded', code: 'id_document_type_not_allowed' });
    expect(refused(await upload(headers, 'passport.png', Buffer.concat([PNG, Buffer.alloc(TEN_MB + 1 - PNG.length)])), 413))
      .toMatchObject({ message: 'The file must be at most 10 MB', code: 'file_too_large' });
    expect(refused(await upload(headers, 'empty.png', ''), 400).code).toBe('file_required');
    expect(refused(await upload(headers, 'passport.png', PNG, 'photo'), 400).code).toBe('form_invalid');
    const visitor = await svc.app.inject({ method: 'POST', url: '/users/verification/id/document', headers: { 'content-type': form('a.png', PNG).type }, payload: form('a.png', PNG).payload });
    expect(visitor.statusCode).toBe(401);
    // Still awaiting after every refusal; a PDF named like a picture is taken for what it is.
    expect((await own(bea))[0]!.status).toBe('awaiting_document');
    expect((await upload(headers, 'scan.png', PDF)).statusCode).toBe(200);
    expect((await own(bea))[0]!.document).toMatchObject({ fileName: 'scan.png', contentType: 'application/pdf', size: PDF.length });
  });

  it('is sealed at rest with ID_DOCUMENT_KEYS, bound to its request; only admins open it, as it was sent', async () => {
    const cleo = await registered(svc, person('cleo'));
    const dan = await registered(svc, person('dan'));
    const { id } = VerificationRequestResponse.parse((await ask(cleo)).json());
    expect((await upload(await as(svc, cleo), 'id-card.jpg', JPEG)).statusCode).toBe(200);

    const [row] = await svc.ctx.orm.em.fork().getConnection().execute<{ sealed: Buffer }[]>('select sealed from identity.id_document where request_id = ?', [id!]);
    const stored = Buffer.from(row!.sealed);
    expect(stored.includes(JPEG)).toBe(false);
    expect(stored.subarray(0, 3).toString()).toBe('d1:');
    const keys = sealingKeys({ name: 'ID_DOCUMENT_KEYS', value: KEYS });
    expect(openBytes(keys, `id-document:${cleo}:${id}`, stored)).toEqual(JPEG);
    expect(() => openBytes(keys, `id-document:${dan}:${id}`, stored)).toThrow('failed authentication');

    const read = await readDocument(id!);
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload).toEqual(JPEG);
    expect(read.headers).toMatchObject({
      'content-type': 'image/jpeg', 'content-disposition': 'inline; filename="id-card.jpg"; filename*=UTF-8\'\'id-card.jpg',
      'x-content-type-options': 'nosniff', 'cache-control': 'private, no-store',
    });
    // Not its owner, not another user, not a visitor.
    expect((await readDocument(id!, await as(svc, cleo))).statusCode).toBe(403);
    expect((await readDocument(id!, await as(svc, dan))).statusCode).toBe(403);
    expect((await svc.app.inject({ method: 'GET', url: `/admin/verification-requests/${id}/document` })).statusCode).toBe(401);
    expect(refused(await readDocument(999_999), 404).message).toBe('ID document not found');
  });

  it('deciding the request deletes the file and keeps what is known of it', async () => {
    for (const decision of ['approve', 'reject'] as const) {
      const user = await registered(svc, person('eva'));
      const { id } = VerificationRequestResponse.parse((await ask(user)).json());
      await upload(await as(svc, user), 'passport.pdf', PDF);
      const decided = await svc.app.inject({ method: 'POST', url: `/admin/verification-requests/${id}/${decision}`, headers: admin });
      expect(decided.statusCode).toBe(200);
      expect(AdminVerificationRequest.parse(decided.json()).document).toEqual({
        fileName: 'passport.pdf', contentType: 'application/pdf', size: PDF.length, uploadedAt: expect.any(String), deletedAt: expect.any(String),
      });
      expect((await readDocument(id!)).statusCode).toBe(404);
      const left = await svc.ctx.orm.em.fork().findOneOrFail(IdDocument, { requestId: id! }, { populate: ['sealed'] });
      expect(left.sealed).toBeNull();
    }
  });

  it('is listed (never its file) in the data download, and erased with the account', async () => {
    const fay = await registered(svc, person('fay'));
    const { id } = VerificationRequestResponse.parse((await ask(fay)).json());
    await upload(await as(svc, fay), 'passport.png', PNG);
    const em = svc.ctx.orm.em.fork();
    const user = await em.findOneOrFail(User, { id: fay });
    const data = IdentityPersonalData.parse(await personalDataOf(em, user));
    expect(data.verificationRequests).toEqual([{
      id, type: 'id', status: 'pending', createdAt: expect.any(String), decidedAt: null,
      document: { fileName: 'passport.png', contentType: 'image/png', size: PNG.length, uploadedAt: expect.any(String), deletedAt: null },
    }]);
    expect(JSON.stringify(data)).not.toContain(PNG.toString('base64'));

    await em.transactional((tx) => eraseUser(tx, user));
    expect(await svc.ctx.orm.em.fork().count(IdDocument, { userId: fay })).toBe(0);
    expect((await review()).map((r) => r.id)).not.toContain(id);
  });
});
