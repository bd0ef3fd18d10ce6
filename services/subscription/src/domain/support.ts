/**
 * Priority support: users' support requests and the admins' queue. The queue puts premium users' requests first by
 * their plan now (this service's own subscription rows), so a user who upgrades is served sooner at once.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { type SupportQueueItem, type SupportRequest as SupportRequestView, SupportRequestStatus } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { Subscription } from './subscription.ts';

export const SupportRequestSchema = defineEntity({
  name: 'SupportRequest',
  tableName: 'support_request',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer().index('support_request_user_id_index'),
    subject: p.text(),
    message: p.text(),
    status: p.enum(SupportRequestStatus.options).default('open'),
    reply: p.text().nullable(),
    createdAt: p.datetime(),
    resolvedAt: p.datetime().nullable(),
    resolvedById: p.integer().nullable(),
  },
  indexes: [{ name: 'support_request_status_created_at_index', properties: ['status', 'createdAt'] }],
});
export class SupportRequest extends SupportRequestSchema.class {}
SupportRequestSchema.setClass(SupportRequest);

export const supportView = (r: SupportRequest): SupportRequestView => ({
  id: r.id, subject: r.subject, message: r.message, status: r.status, reply: r.reply ?? null,
  createdAt: r.createdAt.toISOString(), resolvedAt: r.resolvedAt?.toISOString() ?? null,
});

const isPremium = (tier: string | null) => tier === 'premium';

/** One page of the open requests: premium users' first, then oldest first (the id breaks a tie of timestamps). */
export async function supportQueue(em: EntityManager, limit: number, offset: number): Promise<{ items: SupportQueueItem[]; total: number }> {
  const rows = await em.execute<{ id: number; tier: string | null; total: string }[]>(
    `select r.id, s.tier, count(*) over () as total
     from ${qualifiedTable(em, SupportRequest)} r left join ${qualifiedTable(em, Subscription)} s on s.user_id = r.user_id
     where r.status = 'open'
     order by (s.tier = 'premium') is true desc, r.created_at asc, r.id asc
     limit ? offset ?`,
    [limit, offset]);
  const total = rows.length ? Number(rows[0]!.total) : await em.count(SupportRequest, { status: 'open' });
  const found = new Map((await em.find(SupportRequest, { id: { $in: rows.map((r) => r.id) } })).map((r) => [r.id, r]));
  return {
    items: rows.map((row) => queueItem(found.get(row.id)!, row.tier)),
    total,
  };
}

export const queueItem = (r: SupportRequest, tier: string | null): SupportQueueItem =>
  ({ ...supportView(r), userId: r.userId, tier: isPremium(tier) ? 'premium' : 'free' });
