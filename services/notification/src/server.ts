import { loadConfig } from '@puente/platform';
import { runServiceProcess } from '@puente/platform/process';
import { notificationService, NotificationSettings } from './app.ts';

await runServiceProcess(notificationService(loadConfig(NotificationSettings)));
