/**
 * What the rating service holds of a user, for their data download (the ratings they gave and received), and their
 * account's deletion. Ratings stay: the stars a deleted user gave are part of their partners' trust, and the ones
 * they received were written by others. What was theirs goes: their first name beside the ratings they gave, and the
 * comments they wrote (free text that may say anything about them).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DeletedUser, type RatingPersonalData } from '@puente/contracts';
import { Rating } from './rating.ts';
import { setRaterNames } from './rater.ts';
import { ratingViews } from './views.ts';

export async function personalDataOf(em: EntityManager, userId: number): Promise<RatingPersonalData> {
  const [given, received] = await Promise.all([
    em.find(Rating, { fromUserId: userId }, { orderBy: { id: 'asc' } }),
    em.find(Rating, { toUserId: userId }, { orderBy: { id: 'asc' } }),
  ]);
  return { given: await ratingViews(em, given), received: await ratingViews(em, received) };
}

/** As of `at` (the deletion): an older name arriving later never brings theirs back. */
export async function eraseUser(em: EntityManager, userId: number, at: Date): Promise<void> {
  await setRaterNames(em, [{ userId, firstName: DeletedUser.firstName }], at);
  await em.nativeUpdate(Rating, { fromUserId: userId }, { comment: null });
}
