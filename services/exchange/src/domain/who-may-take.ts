/**
 * Who may take a request: not someone its poster blocked (told only that the request is not found, as if it did
 * not exist), not someone who blocked its poster, and whoever meets what the poster asked (a minimum trust level,
 * an ID verified). The trust level is computed as identity computes it, from this service's projection.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AcceptRefusal, meetsTrustLevel, type ExchangeRequest as RequestView } from '@puente/contracts';
import { AppError, notFound } from '@puente/platform';
import { blockBetween } from './blocks.ts';
import type { ExchangeRequest } from './exchange-request.ts';
import { Trader, trustLevelOf } from './traders.ts';

export const REQUEST_NOT_FOUND = 'Exchange request not found';

/** 404 when the poster and the viewer blocked each other either way: the request is hidden from the viewer. */
export async function assertVisibleTo(em: EntityManager, posterId: number, viewerId: number): Promise<void> {
  if (posterId !== viewerId && await blockBetween(em, posterId, viewerId)) throw notFound(REQUEST_NOT_FOUND);
}

/** An accept's refusal for a block: 404 when the poster blocked the taker, 403 (with a code) the other way round. */
export async function assertNotBlocked(em: EntityManager, posterId: number, takerId: number): Promise<void> {
  const block = await blockBetween(em, posterId, takerId);
  if (block === 'first') throw notFound(REQUEST_NOT_FOUND);
  if (block === 'second') {
    throw new AppError(403, AcceptRefusal.youBlocked, 'You have blocked this user: unblock them to accept their exchange request.');
  }
}

/** Throws the refusal (404, or 403 with a code) when `takerId` may not accept `request`. */
export async function assertMayTake(
  em: EntityManager, request: Pick<ExchangeRequest, 'userId' | 'minTrustLevel' | 'verifiedOnly'>, takerId: number,
): Promise<void> {
  await assertNotBlocked(em, request.userId, takerId);
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
