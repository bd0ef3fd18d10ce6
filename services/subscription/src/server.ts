import { loadConfig } from '@puente/platform';
import { runServiceProcess } from '@puente/platform/process';
import { subscriptionService, SubscriptionSettings } from './app.ts';

await runServiceProcess(subscriptionService(loadConfig(SubscriptionSettings)));
