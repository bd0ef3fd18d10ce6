/**
 * Rating: the ratings the parties of a completed match give each other, once each. Owns schema `rating`. Keeps
 * projections of matches (from the exchange service's match events) and of users' first names (from identity).
 * Each rating publishes the rated user's exact running average and count (ratingSubmitted).
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ProjectionBackfillSchema, ProjectionBackfillSetting, defineService } from '@puente/platform';
import { RatingSchema } from './domain/rating.ts';
import { RaterSchema } from './domain/rater.ts';
import { TradeSchema } from './domain/trade.ts';
import { ratingRoutes } from './routes/ratings.ts';
import { personalDataRoutes } from './routes/personal-data.ts';
import { backfill } from './jobs/backfill-projections.ts';
import { consumers } from './events/consumers.ts';

/** The rating service's settings (besides the service settings every process reads). */
export const RatingSettings = z.object({
  /**
   * 'on': a start without the raters' snapshot fills it from identity (internal route).
   * 'off' where Kafka keeps every event from the beginning and replaying it suffices.
   */
  PROJECTION_BACKFILL: ProjectionBackfillSetting,
});
export type RatingSettings = z.infer<typeof RatingSettings>;

export function ratingService(settings: RatingSettings = RatingSettings.parse({})) {
  return defineService({
    name: 'rating',
    entities: [RatingSchema, TradeSchema, RaterSchema, ProjectionBackfillSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    jobs: [backfill.job],
    async onStart(ctx) {
      if (settings.PROJECTION_BACKFILL === 'on') await backfill.startIfPending(ctx);
    },
    async routes(app, ctx) {
      await app.register(ratingRoutes(ctx));
      await app.register(personalDataRoutes);
    },
  });
}
