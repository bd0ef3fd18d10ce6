/** Ratings as the API answers them, each with the rater's first name from the projection ('' while unknown). */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Rating as RatingBody } from '@puente/contracts';
import { Rater } from './rater.ts';
import type { Rating } from './rating.ts';

export async function ratingViews(em: EntityManager, ratings: Rating[]): Promise<RatingBody[]> {
  const ids = [...new Set(ratings.map((r) => r.fromUserId))];
  const names = new Map(ids.length === 0 ? [] : (await em.find(Rater, { userId: { $in: ids } })).map((r) => [r.userId, r.firstName]));
  return ratings.map((r) => ({
    id: r.id,
    exchangeMatchId: r.matchId,
    fromUserId: r.fromUserId,
    toUserId: r.toUserId,
    rating: r.rating,
    comment: r.comment ?? null,
    createdAt: r.createdAt.toISOString(),
    fromUser: { firstName: names.get(r.fromUserId) ?? '' },
  }));
}

export async function ratingView(em: EntityManager, rating: Rating): Promise<RatingBody> {
  const [view] = await ratingViews(em, [rating]);
  return view!;
}
