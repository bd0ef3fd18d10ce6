/**
 * Files in a match's chat (proof of payment): a party attaches one while the chat is open; the two parties and
 * admins open it (an admin's read outside an open dispute recorded: domain/admin-reads.ts). Anyone else gets the same
 * 404 as the match routes.
 */
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { ATTACHMENT_TYPE_REFUSED, Routes } from '@puente/contracts';
import { AppError, changed, notFound, requireUser, sendPrivateFile, serve, type ServiceContext } from '@puente/platform';
import { addToChat, assertChatOpen, chatView } from '../domain/chat.ts';
import { attachmentType, ChatAttachment, openAttachment, storeAttachment, type ChatFiles } from '../domain/chat-attachments.ts';
import { recordChatRead } from '../domain/admin-reads.ts';
import { readerOf, visibleMatch } from './deps.ts';

const routes = Routes.exchange;
export const ATTACHMENT_NOT_FOUND = 'Attachment not found';

export interface ChatAttachmentDeps {
  /** The plain context: an attachment changes no request or match, so no polled version moves with it. */
  ctx: ServiceContext;
  now(): Date;
  files: ChatFiles;
}

export function chatAttachmentRoutes({ ctx, now, files }: ChatAttachmentDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    // Limits are set per form by serve (the route's declaration); nothing else here reads multipart bodies.
    await app.register(fastifyMultipart);

    serve(app, routes.postChatAttachment, async (request) => {
      const caller = requireUser(request);
      const match = await visibleMatch(request, request.params.id, false);
      const at = now();
      assertChatOpen(match, at);
      const type = await attachmentType(request.upload.bytes);
      if (!type) throw new AppError(415, ATTACHMENT_TYPE_REFUSED.code, ATTACHMENT_TYPE_REFUSED.message);
      const { message, attachment } = await storeAttachment(files, match.id, request.upload, type, (fields) =>
        ctx.change(async (tx) => {
          const attachment = tx.create(ChatAttachment, { ...fields, authorId: caller.userId, createdAt: at });
          await tx.flush(); // its id goes on the message
          const { value: message, events } = await addToChat(tx, match, { kind: 'attachment', authorId: caller.userId, body: request.body.caption }, at, attachment);
          return changed({ message, attachment }, ...events);
        }));
      request.log.info({ matchId: match.id, attachmentId: attachment.id, contentType: type, size: attachment.size }, 'chat attachment stored');
      return chatView(message, attachment);
    });

    serve(app, routes.chatAttachment, async (request, reply) => {
      const match = await visibleMatch(request, request.params.id, true);
      const attachment = await request.em.findOne(ChatAttachment, { id: request.params.attachmentId, matchId: match.id });
      if (!attachment) throw notFound(ATTACHMENT_NOT_FOUND);
      const bytes = await openAttachment(files, attachment);
      if (!bytes) {
        request.log.error({ attachmentId: attachment.id }, 'a chat attachment\'s bytes are missing from the storage');
        throw notFound(ATTACHMENT_NOT_FOUND);
      }
      await recordChatRead(ctx, match, readerOf(request), { what: 'attachment', attachmentId: attachment.id }, now());
      return sendPrivateFile(reply, attachment, bytes);
    });
  };
}
