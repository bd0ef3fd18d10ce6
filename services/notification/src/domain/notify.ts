/**
 * Storing notifications and announcing them. Each is keyed by (user, source event): a redelivered event or a
 * retried page stores nothing twice and announces nothing twice. Each stored one is announced on the bus
 * (notificationCreated, written with the change that stored it: the gateway pushes it to the user's open sockets,
 * and the version table gives its user's polled list and count a new version).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@puente/contracts';
import { makeEvent, qualifiedTable } from '@puente/platform';
import { Notification } from './notification.ts';
import { withoutDeletedAccounts } from './deleted-accounts.ts';
import type { NewNotification } from './trade-notifications.ts';

export interface StoredNotification extends NewNotification { id: number }

/** The notificationCreated event of each stored notification. */
export function announce(stored: readonly StoredNotification[]): EventEnvelope[] {
  return stored.map((n) => makeEvent('notificationCreated', n.id, {
    notificationId: n.id, userId: n.userId, type: n.type, content: n.content, params: n.params, referenceId: n.referenceId,
  }));
}

/** Stores what an event tells its users, skipping users it already told and deleted accounts; returns the announcements of what it stored. */
export async function notify(em: EntityManager, sourceEventId: string, told: readonly NewNotification[]): Promise<EventEnvelope[]> {
  const items = await withoutDeletedAccounts(em, told);
  if (items.length === 0) return [];
  const rows = await em.execute<{ id: number; user_id: number; type: NewNotification['type']; content: string; params: NewNotification['params']; reference_id: number | null }[]>(
    `insert into ${qualifiedTable(em, Notification)} (user_id, type, content, params, read, reference_id, created_at, source_event_id)
     values ${items.map(() => '(?, ?, ?, ?::jsonb, false, ?, now(), ?)').join(', ')}
     on conflict (user_id, source_event_id) do nothing
     returning id, user_id, type, content, params, reference_id`,
    items.flatMap((n) => [n.userId, n.type, n.content, JSON.stringify(n.params), n.referenceId, sourceEventId]));
  return announce(rows.map((r) => ({ id: r.id, userId: r.user_id, type: r.type, content: r.content, params: r.params, referenceId: r.reference_id })));
}
