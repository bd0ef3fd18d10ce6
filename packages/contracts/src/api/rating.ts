/**
 * Ratings: each party of a completed match rates the other once.
 * Calls: POST /api/ratings, GET /api/ratings/exchange/{exchangeMatchId}, GET /api/ratings/user/{userId}.
 */
import { z } from 'zod';
import { Id, IsoDateTime, ValidationMessages as M, blankToUndefined, bodyId, idParam, safeText } from './common.ts';

/** Stars: a whole number from 1 to 5 (the web's default is 4). */
export const Stars = z
  .number({ error: M.ratingRange })
  .int({ error: M.ratingRange })
  .min(1, M.ratingRange)
  .max(5, M.ratingRange);
export type Stars = z.infer<typeof Stars>;

/** POST /api/ratings. comment is optional: blank or null becomes absent; at most 1000 characters, lines allowed. */
export const RatingCreate = z.object({
  exchangeMatchId: bodyId(M.exchangeMatchIdInvalid),
  toUserId: bodyId(M.userIdInvalid),
  rating: Stars,
  comment: z.preprocess(blankToUndefined, safeText({ multiline: true }).max(1000, M.commentTooLong).optional()),
});
export type RatingCreate = z.infer<typeof RatingCreate>;

/**
 * A rating: the answer to POST (201) and the items of both GET lists. Beyond the spec's fields: the rater's first
 * name (`fromUser`), for the lists a profile shows ('' while the rating service has not heard the rater's name).
 */
export const Rating = z.object({
  id: Id,
  exchangeMatchId: Id,
  fromUserId: Id,
  toUserId: Id,
  rating: Stars,
  comment: z.string().nullish(),
  createdAt: IsoDateTime,
  fromUser: z.object({ firstName: z.string() }),
});
export type Rating = z.infer<typeof Rating>;

export const RatingList = z.array(Rating);
export type RatingList = z.infer<typeof RatingList>;

/** Route params of GET /api/ratings/exchange/{exchangeMatchId} */
export const RatingsByMatchParams = z.object({ exchangeMatchId: idParam(M.exchangeMatchIdInvalid) });
export type RatingsByMatchParams = z.infer<typeof RatingsByMatchParams>;

/** Route params of GET /api/ratings/user/{userId} */
export const RatingsByUserParams = z.object({ userId: idParam(M.userIdInvalid) });
export type RatingsByUserParams = z.infer<typeof RatingsByUserParams>;

/** The rating service's section of a user's data download (GET /internal/personal-data/ratings): ratings given and received. */
export const RatingPersonalData = z.object({ given: RatingList, received: RatingList });
export type RatingPersonalData = z.infer<typeof RatingPersonalData>;
