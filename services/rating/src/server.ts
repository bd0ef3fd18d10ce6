import { runServiceProcess } from '@puente/platform/process';
import { ratingService } from './app.ts';

await runServiceProcess(ratingService());
