/**
 * Admins' reads of a match's chat or of one of its attachments outside an open dispute, as the exchange announced
 * them (exchange.chat.admin-read), one row per event: the event id is unique, so a redelivered event never makes a
 * second row. `at` is when the admin read it; the rows never change.
 */
import { defineEntity, p } from '@mikro-orm/postgresql';
import { AdminReadWhat, type AdminChatRead as AdminChatReadView } from '@puente/contracts';

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
