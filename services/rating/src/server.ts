import { loadConfig } from '@puente/platform';
import { runServiceProcess } from '@puente/platform/process';
import { ratingService, RatingSettings } from './app.ts';

await runServiceProcess(ratingService(loadConfig(RatingSettings)));
