/**
 * One page of a request's fan-out: the next users (in id order, after `afterUserId`) who could take it — an account
 * in both currencies, not its owner, not blocked either way by it — each get one exchange_request notification. One statement: the page of user
 * ids, and the insert that skips a user this event already notified (a retried page, a redelivered event).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationParams } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { AccountHolder } from './account-holders.ts';
import { Notification } from './notification.ts';
import type { StoredNotification } from './notify.ts';

export interface FanOutPage {
  eventId: string;
  requestId: number;
  ownerId: number;
  afterUserId: number;
  /** Users blocked by or blocking the owner: left out of every page. */
  excludedUserIds?: readonly number[];
  content: string;
  params: NotificationParams;
}

export interface FanOutPageResult {
  /** Users in the page (a full page means there may be more). */
  users: number;
  /** Of them, those notified now (the rest already were, by this event). */
  notified: StoredNotification[];
  /** The page's last user id: where the next page starts; null for an empty page. */
  lastUserId: number | null;
}

export async function notifyTakersPage(em: EntityManager, page: FanOutPage, pageSize: number): Promise<FanOutPageResult> {
  const [row] = await em.execute<{ users: number; notified: { id: number; user_id: number }[] | null; last_user_id: number | null }[]>(
    `with page as (
       select user_id from ${qualifiedTable(em, AccountHolder)}
        where not removed and user_id > ? and user_id <> ? and user_id <> all(?::int[])
        group by user_id having count(distinct currency) = 2
        order by user_id limit ?
     ), added as (
       insert into ${qualifiedTable(em, Notification)} (user_id, type, content, params, read, reference_id, created_at, source_event_id)
       select user_id, 'exchange_request', ?, ?::jsonb, false, ?, now(), ? from page
       on conflict (user_id, source_event_id) do nothing
       returning id, user_id
     )
     select (select count(*) from page)::int as users, (select json_agg(added) from added) as notified,
            (select max(user_id) from page) as last_user_id`,
    [page.afterUserId, page.ownerId, `{${(page.excludedUserIds ?? []).join(',')}}`, pageSize, page.content, JSON.stringify(page.params), page.requestId, page.eventId]);
  const notified = (row?.notified ?? []).map(({ id, user_id: userId }) => ({ id, userId, type: 'exchange_request' as const, content: page.content, params: page.params, referenceId: page.requestId }));
  return { users: row?.users ?? 0, notified, lastUserId: row?.last_user_id ?? null };
}
