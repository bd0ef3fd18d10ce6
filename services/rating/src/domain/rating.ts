import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * A rating `fromUserId` gave `toUserId` after match `matchId` completed: 1-5 stars and an optional comment. The
 * unique (match, rater) index is what makes a rater's second rating of a match a conflict, whatever the
 * concurrency; (to_user_id, id) serves a user's received ratings newest first and their running average.
 */
export const RatingSchema = defineEntity({
  name: 'Rating',
  tableName: 'rating',
  properties: {
    id: p.integer().primary().autoincrement(),
    matchId: p.integer(),
    fromUserId: p.integer(),
    toUserId: p.integer(),
    rating: p.smallint(),
    comment: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'rating_match_id_from_user_id_unique', properties: ['matchId', 'fromUserId'] }],
  indexes: [{ name: 'rating_to_user_id_id_index', properties: ['toUserId', 'id'] }],
});
export class Rating extends RatingSchema.class {}
RatingSchema.setClass(Rating);
