/**
 * The document of an ID verification request: its owner uploads it while the request awaits it (then the request goes
 * to review) and sees where each of their open requests is; admins read it for the review. Nobody else reads it: the
 * owner has no route to its bytes either (they have the original; one route fewer to a copy of their passport).
 */
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { LockMode } from '@mikro-orm/postgresql';
import { ID_DOCUMENT_NOT_AWAITED, ID_DOCUMENT_TYPE_REFUSED, Routes } from '@puente/contracts';
import { AppError, changed, notFound, requireAdmin, requireUser, sendPrivateFile, serve } from '@puente/platform';
import { OPEN_STATUSES, VerificationMessages, VerificationRequest } from '../domain/verification-request.ts';
import { documentReceived } from '../domain/verification-transitions.ts';
import { idDocumentType, idDocumentsOf, openIdDocument, storeIdDocument } from '../domain/id-documents.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;
const DOCUMENT_NOT_FOUND = 'ID document not found';

export async function idDocumentRoutes(app: FastifyInstance, { ctx, config }: RouteDeps): Promise<void> {
  // Limits are set per form by serve (the route's declaration); nothing else here reads multipart bodies.
  await app.register(fastifyMultipart);

  /** 200 the request, now pending review; 409 no ID request of the caller's awaits a document; 413 larger; 415 another type. */
  serve(app, routes.uploadIdDocument, async (request) => {
    const { userId } = requireUser(request);
    const open = await request.em.findOne(VerificationRequest, { userId, type: 'id', status: 'awaiting_document' });
    if (!open) throw new AppError(409, ID_DOCUMENT_NOT_AWAITED.code, ID_DOCUMENT_NOT_AWAITED.message);
    const type = await idDocumentType(request.upload.bytes);
    if (!type) throw new AppError(415, ID_DOCUMENT_TYPE_REFUSED.code, ID_DOCUMENT_TYPE_REFUSED.message);
    const vr = await ctx.change(async (tx) => {
      const vr = await tx.findOne(VerificationRequest, { id: open.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!vr) throw new AppError(409, ID_DOCUMENT_NOT_AWAITED.code, ID_DOCUMENT_NOT_AWAITED.message);
      // Two uploads at once: the second finds the request pending already and is refused.
      const events = documentReceived(vr);
      storeIdDocument(tx, config.idDocumentKeys, vr, request.upload, type, new Date());
      await tx.flush();
      return changed(vr, ...events);
    });
    // Never the file's name: it may be the person's name.
    request.log.info({ verificationRequestId: vr.id, contentType: type, size: request.upload.bytes.length }, 'id document received');
    return { message: VerificationMessages.documentReceived, id: vr.id, type: vr.type, status: vr.status };
  });

  /** The caller's open verification requests (awaiting a document or pending review), oldest first. */
  serve(app, routes.ownVerificationRequests, async (request) => {
    const { userId } = requireUser(request);
    const requests = await request.em.find(VerificationRequest, { userId, status: { $in: [...OPEN_STATUSES] } }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const documents = await idDocumentsOf(request.em, requests.map((r) => r.id));
    return requests.map((r) => ({ id: r.id, type: r.type, status: r.status, createdAt: r.createdAt.toISOString(), document: documents.get(r.id) ?? null }));
  });

  /**
   * The document's bytes for the review (admins): 404 no such request, or no document (never uploaded, or deleted once
   * the request was decided). Reading it is the review itself, as reading a disputed chat is a dispute's (the exchange
   * records only admins' reads of chats outside a dispute), and it can only be read while the request waits for a
   * decision; so each read is logged with the admin and the request (never the document's name), not announced.
   */
  serve(app, routes.verificationDocument, async (request, reply) => {
    const admin = requireAdmin(request);
    const opened = await openIdDocument(request.em, config.idDocumentKeys, request.params.id);
    if (!opened) throw notFound(DOCUMENT_NOT_FOUND);
    const { document, bytes } = opened;
    request.log.info({ verificationRequestId: document.requestId, adminId: admin.userId }, 'id document read for review');
    return sendPrivateFile(reply, document, bytes);
  });
}
