/**
 * One page of a request's fan-out: the next users (in id order, after `afterUserId`) who could take it — an account
 * in both currencies, not its owner — each get one exchange_request notification. One statement: the page of user
 * ids, and the insert that skips a user this event already notified (a retried page, a redelivered event).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { qualifiedTable } from '@puente/platform';
import { AccountHolder } from './account-holders.ts';
import { Notification } from './notification.ts';

export interface FanOutPage {
  eventId: string;
  requestId: number;
  ownerId: number;
  afterUserId: number;
  content: string;
}

export interface FanOutPageResult {
  /** Users in the page (a full page means there may be more). */
  users: number;
  /** Of them, how many were notified now (the rest already were, by this event). */
  notified: number;
  /** The page's last user id: where the next page starts; null for an empty page. */
  lastUserId: number | null;
}

export async function notifyTakersPage(em: EntityManager, page: FanOutPage, pageSize: number): Promise<FanOutPageResult> {
  const [row] = await em.execute<{ users: number; notified: number; last_user_id: number | null }[]>(
    `with page as (
       select user_id from ${qualifiedTable(em, AccountHolder)}
        where not removed and user_id > ? and user_id <> ?
        group by user_id having count(distinct currency) = 2
        order by user_id limit ?
     ), added as (
       insert into ${qualifiedTable(em, Notification)} (user_id, type, content, read, reference_id, created_at, source_event_id)
       select user_id, 'exchange_request', ?, false, ?, now(), ? from page
       on conflict (user_id, source_event_id) do nothing
       returning 1
     )
     select (select count(*) from page)::int as users, (select count(*) from added)::int as notified,
            (select max(user_id) from page) as last_user_id`,
    [page.afterUserId, page.ownerId, pageSize, page.content, page.requestId, page.eventId]);
  return { users: row?.users ?? 0, notified: row?.notified ?? 0, lastUserId: row?.last_user_id ?? null };
}
