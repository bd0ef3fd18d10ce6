/**
 * The versions behind the exchange service's polled lists (ExchangeVersions in @puente/contracts; platform
 * http/versions.ts): `market` — every open request and its poster's card, one list for everyone without blocks —,
 * `viewer:<id>` — what a user's blocks hide from their market (bumped by the block routes, domain/blocks.ts) — and
 * `trader:<id>` — a user's own requests and matches. A committed change gives the market a new version, and the
 * trader key of every party of a request or match the transaction read or wrote (reading one more than changed only
 * costs that user one full answer).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ExchangeVersions } from '@puente/contracts';
import type { ServiceContext } from '@puente/platform';
import { ExchangeMatch } from './exchange-match.ts';
import { ExchangeRequest } from './exchange-request.ts';

/** The users whose requests or matches a unit of work holds (flushed: what it created is in the identity map). */
function partiesIn(tx: EntityManager): Set<number> {
  const parties = new Set<number>();
  for (const entity of tx.getUnitOfWork().getIdentityMap()) {
    if (entity instanceof ExchangeRequest) parties.add(entity.userId);
    else if (entity instanceof ExchangeMatch) parties.add(entity.requesterId).add(entity.matcherId);
  }
  return parties;
}

/** The keys to bump after a change to the market and these users' trades. */
export const changedKeys = (userIds: Iterable<number>): string[] => [ExchangeVersions.market, ...[...userIds].map(ExchangeVersions.trader)];

/**
 * The keys to bump when a user's card (names, picture, trust) changes: it shows in the market, in their own
 * requests, and (their name) in the matches of the requesters whose requests they accepted.
 */
export async function cardChangedKeys(em: EntityManager, userId: number): Promise<string[]> {
  const accepted = await em.find(ExchangeMatch, { matcherId: userId }, { fields: ['requesterId'] });
  return changedKeys([userId, ...accepted.map((m) => m.requesterId)]);
}

/** The service context whose transactions and changes give the market and their parties new versions once they commit. */
export function changingMarket<C extends Pick<ServiceContext, 'transaction' | 'change' | 'versions'>>(ctx: C): C {
  return {
    ...ctx,
    async change(fn) {
      let parties = new Set<number>();
      const result = await ctx.change(async (tx) => {
        const answer = await fn(tx);
        await tx.flush();
        parties = partiesIn(tx);
        return answer;
      });
      await ctx.versions.bump(changedKeys(parties));
      return result;
    },
    async transaction(fn) {
      let parties = new Set<number>();
      const result = await ctx.transaction(async (tx) => {
        const answer = await fn(tx);
        await tx.flush();
        parties = partiesIn(tx);
        return answer;
      });
      await ctx.versions.bump(changedKeys(parties));
      return result;
    },
  };
}
