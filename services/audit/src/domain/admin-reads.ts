/**
 * Admins' reads of a match's chat or of one of its attachments outside an open dispute, as the exchange announced
 * them (exchange.chat.admin-read), one row per read: the event id is unique, so a redelivered event never makes a
 * second row, and the same admin reading the same chat or attachment again within SAME_READ_MS is the page they have
 * open refetching it (a window brought back to the front, a reconnect): the first read's row stands for it. `at` is
 * when the admin read it; the rows never change.
 */
import { defineEntity, p } from '@mikro-orm/postgresql';
import { AdminReadWhat, type AdminChatRead as AdminChatReadView } from '@puente/contracts';

/** Within this long of a kept read, the same admin's read of the same chat or attachment is that read again. */
export const SAME_READ_MS = 10 * 60_000;

export const AdminChatReadSchema = defineEntity({
  name: 'AdminChatRead',
  tableName: 'admin_chat_read',
  properties: {
    id: p.integer().primary().autoincrement(),
    eventId: p.uuid().unique(),
    adminId: p.integer(),
    adminName: p.text(),
    matchId: p.integer(),
    what: p.enum(AdminReadWhat.options),
    attachmentId: p.integer().nullable(),
    at: p.datetime(),
  },
  indexes: [{ properties: ['at', 'id'] }],
});
export class AdminChatRead extends AdminChatReadSchema.class {}
AdminChatReadSchema.setClass(AdminChatRead);

export const adminChatReadView = (r: AdminChatRead): AdminChatReadView => ({
  id: r.id, adminId: r.adminId, adminName: r.adminName, matchId: r.matchId, what: r.what, attachmentId: r.attachmentId ?? null, at: r.at.toISOString(),
});
