/** The admins' reads of chats and attachments outside an open dispute (domain/admin-reads.ts), newest first, paginated. */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { serve } from '@puente/platform';
import { AdminChatRead, adminChatReadView } from '../domain/admin-reads.ts';

export async function adminReadRoutes(app: FastifyInstance): Promise<void> {
  serve(app, Routes.audit.chatReads, async (request, reply) => {
    const { limit, offset } = request.query;
    const [rows, total] = await request.em.findAndCount(AdminChatRead, {}, { orderBy: { at: 'desc', id: 'desc' }, limit, offset });
    reply.header('x-total-count', String(total));
    return rows.map(adminChatReadView);
  });
}
