import { runServiceProcess } from '@puente/platform/process';
import { subscriptionService } from './app.ts';

await runServiceProcess(subscriptionService());
