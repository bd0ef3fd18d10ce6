/**
 * Who may take a request: not someone its poster blocked (told only that the request is not found, as if it did
 * not exist), not someone who blocked its poster, and whoever meets what the poster asked (a minimum trust level,
 * an ID verified). The trust level is computed as identity computes it, from this service's projection.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AcceptRefusal, meetsTrustLevel, type ExchangeRequest as RequestView } from '@puente/contracts';
import { AppError, notFound, qualifiedTable } from '@puente/platform';
import { Block, blockBetween } from './blocks.ts';
import { ExchangeRequest } from './exchange-request.ts';
import { Trader, trustLevelOf } from './traders.ts';

export const REQUEST_NOT_FOUND = 'Exchange request not found';

/** 404 when the poster and the viewer blocked each other either way: the request is hidden from the viewer. */
export async function assertVisibleTo(em: EntityManager, posterId: number, viewerId: number): Promise<void> {
  if (posterId !== viewerId && await blockBetween(em, posterId, viewerId)) throw notFound(REQUEST_NOT_FOUND);
}

/** An accept's refusal for a block: 404 when the poster blocked the taker, 403 (with a code) the other way round. */
function refuseBlock(block: 'first' | 'second' | null): void {
  if (block === 'first') throw notFound(REQUEST_NOT_FOUND);
  if (block === 'second') {
    throw new AppError(403, AcceptRefusal.youBlocked, 'You have blocked this user: unblock them to accept their exchange request.');
  }
}

/**
 * The request an accept names, as its early refusal reads it (no transaction, no lock): its poster and status, and
 * the refusal for a block between the poster and the taker, in one query — a crowd accepting a sought-after
 * request is refused by this read alone. Null when there is no such request.
 */
export async function requestSeenByTaker(
  em: EntityManager, requestId: number, takerId: number,
): Promise<(Pick<ExchangeRequest, 'userId' | 'status'> & { refuseBlock(): void }) | null> {
  const [row] = await em.execute<{ user_id: number; status: ExchangeRequest['status']; blocker_id: number | null }[]>(
    `select r.user_id, r.status,
       (select b.blocker_id from ${qualifiedTable(em, Block)} b
         where (b.blocker_id = r.user_id and b.blocked_id = ?) or (b.blocker_id = ? and b.blocked_id = r.user_id)
         order by b.blocker_id = r.user_id desc limit 1) as blocker_id
     from ${qualifiedTable(em, ExchangeRequest)} r where r.id = ?`, [takerId, takerId, requestId]);
  if (!row) return null;
  const block = row.blocker_id === null ? null : row.blocker_id === row.user_id ? 'first' : 'second';
  return { userId: row.user_id, status: row.status, refuseBlock: () => refuseBlock(block) };
}

/** Throws the refusal (404, or 403 with a code) when `takerId` may not accept `request`. */
export async function assertMayTake(
  em: EntityManager, request: Pick<ExchangeRequest, 'userId' | 'minTrustLevel' | 'verifiedOnly'>, takerId: number,
): Promise<void> {
  refuseBlock(await blockBetween(em, request.userId, takerId));
  if (!request.minTrustLevel && !request.verifiedOnly) return;
  const taker = await em.findOne(Trader, { userId: takerId });
  if (request.verifiedOnly && !taker?.idVerified) {
    throw new AppError(403, AcceptRefusal.verification, 'Only users with a verified ID can accept this exchange request. Verify your ID from your profile.');
  }
  const level = trustLevelOf(taker);
  if (!meetsTrustLevel(level, request.minTrustLevel)) {
    throw new AppError(403, AcceptRefusal.trustLevel,
      `This exchange request is open to ${request.minTrustLevel} traders and above: your trust level is ${level}.`);
  }
}

/** What a request asks of its taker, as the API shows it: only what the poster set. */
export function requirementsOf(r: Pick<ExchangeRequest, 'minTrustLevel' | 'verifiedOnly'>): Pick<RequestView, 'minTrustLevel' | 'verifiedOnly'> {
  return { ...(r.minTrustLevel ? { minTrustLevel: r.minTrustLevel } : {}), ...(r.verifiedOnly ? { verifiedOnly: true } : {}) };
}
