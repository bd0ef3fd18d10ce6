/**
 * Blocks between users (api/exchange-access.ts): a block hides each one's requests from the other in the market and
 * refuses an accept either way. Trades already under way are left to run (either party can still call off a pending
 * match). A block or unblock changes what the market shows both users: it is a local change (blockChanged), whose
 * keys the version table gives (market-version.ts).
 */
import { defineEntity, p, type EntityManager } from '@mikro-orm/postgresql';
import { BlockRefusal, ExchangeVersions, MAX_BLOCKED_USERS, type BlockedUser } from '@puente/contracts';
import { changed, conflict, qualifiedTable, type Changed } from '@puente/platform';
import { local } from './market-version.ts';
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

/** The blocker blocks `blockedId` (not themselves, a known user: the route checks); at most MAX_BLOCKED_USERS. */
export async function block(tx: EntityManager, blockerId: number, blockedId: number, at: Date): Promise<Changed<void>> {
  await lockPair(tx, blockerId, blockedId);
  // Counted under the pair's lock only: two blocks at once may pass one over the limit, which only bounds a filter.
  if (await tx.count(Block, { blockerId }) >= MAX_BLOCKED_USERS) {
    throw conflict(`You can block at most ${MAX_BLOCKED_USERS} users: unblock someone first.`, BlockRefusal.tooMany);
  }
  await tx.insert(Block, { blockerId, blockedId, createdAt: at });
  return changed(undefined, local('blockChanged', { blockerId, blockedId }));
}

/** The blocker lifts their block of `only`, or all their blocks; answers how many there were. */
export async function liftBlocks(tx: EntityManager, blockerId: number, only?: number): Promise<Changed<number>> {
  const where = only === undefined ? { blockerId } : { blockerId, blockedId: only };
  const lifted = await tx.find(Block, where, { fields: ['blockedId'] });
  if (lifted.length === 0) return changed(0);
  await tx.nativeDelete(Block, where);
  return changed(lifted.length, ...lifted.map((b) => local('blockChanged', { blockerId, blockedId: b.blockedId })));
}

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

/**
 * The viewer keys that must have a version (kept keys, market-version.ts): those of every user in a block, either
 * side. Anyone else sees the shared market, and the gateway serves it to them knowing so from their key alone.
 */
export async function keptViewerKeys(em: EntityManager): Promise<string[]> {
  const table = qualifiedTable(em, Block);
  const rows = await em.execute<{ user_id: number }[]>(`select blocker_id as user_id from ${table} union select blocked_id from ${table}`);
  return rows.map((r) => ExchangeVersions.viewer(r.user_id));
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
