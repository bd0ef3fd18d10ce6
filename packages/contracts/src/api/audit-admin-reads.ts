/**
 * Admins' reads of a match's chat or of one of its attachments (proof of payment) outside an open dispute: the
 * exchange announces each (Events.adminChatRead) and the audit service keeps it for the admin page.
 * Calls: GET /api/admin/chat-reads.
 */
import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

/** What was read: the chat's messages, or one attachment's bytes. */
export const AdminReadWhat = z.enum(['chat', 'attachment']);
export type AdminReadWhat = z.infer<typeof AdminReadWhat>;

/** One item of GET /api/admin/chat-reads: who read what of which match, when. */
export const AdminChatRead = z.object({
  id: Id,
  adminId: Id,
  /** The admin's name when they read it ('' when the exchange did not know it). */
  adminName: z.string(),
  matchId: Id,
  what: AdminReadWhat,
  /** The attachment read; null for the chat. */
  attachmentId: Id.nullable(),
  at: IsoDateTime,
});
export type AdminChatRead = z.infer<typeof AdminChatRead>;

export const AdminChatReadList = z.array(AdminChatRead);
export type AdminChatReadList = z.infer<typeof AdminChatReadList>;
