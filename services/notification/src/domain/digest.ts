/**
 * The email digest (beyond the spec; anchors: Peach, RoboSats): a user whose notification is still unread
 * `afterMinutes` after it came gets one email of what is unread and was never emailed, at most one per
 * `minIntervalMinutes`, unless they turned digests off. Each digest moves the user's `digested_through_id` to the
 * highest notification it holds, so a later digest never repeats one.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NotificationWording } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { Notification } from './notification.ts';
import { NotificationPreference } from './preferences.ts';

export interface DigestRules {
  /** A notification unread this long after it came is due in a digest. */
  afterMinutes: number;
  /** At most one digest per user in this many minutes. */
  minIntervalMinutes: number;
}

/** The instants a check at `now` compares with: notifications created up to `dueBefore`, digests sent up to `lastSentBefore`. */
function cutoffs(rules: DigestRules, now: Date) {
  return {
    dueBefore: new Date(now.getTime() - rules.afterMinutes * 60_000),
    lastSentBefore: new Date(now.getTime() - rules.minIntervalMinutes * 60_000),
  };
}

/** A user due a digest, and the highest notification it would hold. */
export interface DueDigest { userId: number; throughId: number }

/** The next page of users (in id order, after `afterUserId`) due a digest at `now`. */
export async function dueDigestsPage(em: EntityManager, rules: DigestRules, now: Date, afterUserId: number, pageSize: number): Promise<DueDigest[]> {
  const { dueBefore, lastSentBefore } = cutoffs(rules, now);
  const rows = await em.execute<{ user_id: number; through_id: number }[]>(
    `select n.user_id, max(n.id) as through_id
       from ${qualifiedTable(em, Notification)} n
       left join ${qualifiedTable(em, NotificationPreference)} p on p.user_id = n.user_id
      where n.user_id > ? and not n.read and n.created_at <= ?
        and n.id > coalesce(p.digested_through_id, 0)
        and coalesce(p.email_digest, true)
        and (p.last_digest_at is null or p.last_digest_at <= ?)
      group by n.user_id
      order by n.user_id
      limit ?`,
    [afterUserId, dueBefore, lastSentBefore, pageSize]);
  return rows.map((r) => ({ userId: r.user_id, throughId: r.through_id }));
}

/** Notifications listed in one email; the rest are counted. */
export const DIGEST_LIST_LIMIT = 20;

/** A listed notification: its English content, and what words it in another language (the contracts' notification catalogue). */
export interface DigestItem extends NotificationWording { content: string; createdAt: Date }

/** What a digest for one user at `now` would hold; null when none is due (turned off, too soon, nothing new). */
export interface Digest {
  /** The newest first, at most DIGEST_LIST_LIMIT. */
  items: DigestItem[];
  total: number;
  /** The highest notification in it. */
  throughId: number;
  /** Where the user's digest stood, to claim it from (see claimDigest). */
  previous: { lastDigestAt: Date | null; digestedThroughId: number };
}

export async function dueDigest(em: EntityManager, rules: DigestRules, now: Date, userId: number): Promise<Digest | null> {
  const { dueBefore, lastSentBefore } = cutoffs(rules, now);
  const preference = await em.findOne(NotificationPreference, { userId });
  if (preference && (!preference.emailDigest || (preference.lastDigestAt && preference.lastDigestAt > lastSentBefore))) return null;
  const previous = { lastDigestAt: preference?.lastDigestAt ?? null, digestedThroughId: preference?.digestedThroughId ?? 0 };
  const rows = await em.execute<(Pick<DigestItem, 'type' | 'content' | 'params'> & { id: number; reference_id: number | null; created_at: Date | string; total: number })[]>(
    `select id, type, content, params, reference_id, created_at, count(*) over ()::int as total
       from ${qualifiedTable(em, Notification)}
      where user_id = ? and not read and id > ? and created_at <= ?
      order by id desc
      limit ?`,
    [userId, previous.digestedThroughId, dueBefore, DIGEST_LIST_LIMIT]);
  if (rows.length === 0) return null;
  return {
    items: rows.map((r) => ({ type: r.type, content: r.content, params: r.params, referenceId: r.reference_id, createdAt: new Date(r.created_at) })),
    total: rows[0]!.total,
    throughId: rows[0]!.id,
    previous,
  };
}

/**
 * Records the digest as sent before it is sent, in one statement that succeeds only while the user's digest stands
 * where `digest` read it (and is still on and due): of two jobs for one user, one sends. False: another got there.
 */
export async function claimDigest(em: EntityManager, rules: DigestRules, now: Date, userId: number, digest: Digest): Promise<boolean> {
  const { lastSentBefore } = cutoffs(rules, now);
  const table = qualifiedTable(em, NotificationPreference);
  const rows = await em.execute<{ user_id: number }[]>(
    `insert into ${table} as p (user_id, email_digest, last_digest_at, digested_through_id) values (?, true, ?, ?)
     on conflict (user_id) do update set last_digest_at = excluded.last_digest_at, digested_through_id = excluded.digested_through_id
      where p.email_digest and p.digested_through_id = ? and (p.last_digest_at is null or p.last_digest_at <= ?)
     returning p.user_id`,
    [userId, now, digest.throughId, digest.previous.digestedThroughId, lastSentBefore]);
  return rows.length === 1;
}

/** Undoes a claim whose email could not be sent, so the retry finds the digest due again. */
export async function releaseDigest(em: EntityManager, now: Date, userId: number, digest: Digest): Promise<void> {
  await em.nativeUpdate(NotificationPreference,
    { userId, lastDigestAt: now, digestedThroughId: digest.throughId },
    { lastDigestAt: digest.previous.lastDigestAt, digestedThroughId: digest.previous.digestedThroughId });
}
