/**
 * Blocks between users (api/exchange-access.ts): a block hides each one's requests from the other in the market and
 * refuses an accept either way. Trades already under way are left to run (either party can still call off a pending
 * match). A block or unblock changes what the market shows both users: their `viewer` keys get new versions.
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { ExchangeVersions, type BlockedUser } from '@puente/contracts';
import { qualifiedTable } from '@puente/platform';
import { Trader } from './traders.ts';

export const BlockSchema = defineEntity({
  name: 'Block',
  tableName: 'block',
  properties: {
    blockerId: p.integer().primary().autoincrement(false),
    blockedId: p.integer().primary().autoincrement(false),
    createdAt: p.datetime(),
  },
  // The primary key finds whom a user blocked; this one who blocked them (the market's filter reads both).
  indexes: [{ name: 'block_blocked_id_blocker_id_index', properties: ['blockedId', 'blockerId'] }],
});
export class Block extends BlockSchema.class {}
BlockSchema.setClass(Block);

/** The keys to bump once a block between these two users is made or lifted. */
export const blockChangedKeys = (a: number, b: number): string[] => [ExchangeVersions.viewer(a), ExchangeVersions.viewer(b)];

/**
 * Serialises a block and an accept between the same two users (in the caller's transaction): an accept checked
 * before the block commits has made its match by then, and one after sees the block.
 */
export async function lockPair(tx: EntityManager, a: number, b: number): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`block:${Math.min(a, b)}:${Math.max(a, b)}`]);
}

/** Which of the two blocked the other, if either: 'first' (a blocked b), 'second' (b blocked a), else null. */
export async function blockBetween(em: EntityManager, a: number, b: number): Promise<'first' | 'second' | null> {
  const found = await em.find(Block, { $or: [{ blockerId: a, blockedId: b }, { blockerId: b, blockedId: a }] }, { fields: ['blockerId'] });
  if (found.some((x) => x.blockerId === a)) return 'first';
  return found.length > 0 ? 'second' : null;
}

/** Whether the user blocked anyone or was blocked by anyone: if not, the market is the same for them as for everyone. */
export async function hasBlocks(em: EntityManager, userId: number): Promise<boolean> {
  const [row] = await em.execute<{ any: boolean }[]>(
    `select exists (select 1 from ${qualifiedTable(em, Block)} where blocker_id = ?)
         or exists (select 1 from ${qualifiedTable(em, Block)} where blocked_id = ?) as any`, [userId, userId]);
  return Boolean(row?.any);
}

/** The SQL condition (with its two parameters) that leaves out requests by users blocked by or blocking `viewerId`. */
export function notBlockedWith(em: EntityManager, viewerId: number, posterColumn: string): { sql: string; params: number[] } {
  const table = qualifiedTable(em, Block);
  return {
    sql: `not exists (select 1 from ${table} b where (b.blocker_id = ? and b.blocked_id = ${posterColumn})
                                          or (b.blocker_id = ${posterColumn} and b.blocked_id = ?))`,
    params: [viewerId, viewerId],
  };
}

/** The users `userId` blocked or was blocked by (the notifications about their request skip them). */
export async function blockedEitherWay(em: EntityManager, userId: number): Promise<number[]> {
  const rows = await em.find(Block, { $or: [{ blockerId: userId }, { blockedId: userId }] }, { fields: ['blockerId', 'blockedId'] });
  return [...new Set(rows.map((b) => (b.blockerId === userId ? b.blockedId : b.blockerId)))].sort((a, b) => a - b);
}

interface BlockedRow { blocked_id: number; created_at: Date | string; first_name: string | null; last_name: string | null; profile_image_url: string | null }

/** The users `blockerId` blocked, newest first, with their card's names and picture. */
export async function blockedBy(em: EntityManager, blockerId: number, only?: number): Promise<BlockedUser[]> {
  const rows = await em.execute<BlockedRow[]>(
    `select b.blocked_id, b.created_at, t.first_name, t.last_name, t.profile_image_url
       from ${qualifiedTable(em, Block)} b left join ${qualifiedTable(em, Trader)} t on t.user_id = b.blocked_id
      where b.blocker_id = ? ${only === undefined ? '' : 'and b.blocked_id = ?'}
      order by b.created_at desc, b.blocked_id desc`,
    only === undefined ? [blockerId] : [blockerId, only]);
  return rows.map((r) => ({
    userId: r.blocked_id, firstName: r.first_name ?? '', lastName: r.last_name ?? '', profileImageUrl: r.profile_image_url,
    blockedAt: new Date(r.created_at).toISOString(),
  }));
}
