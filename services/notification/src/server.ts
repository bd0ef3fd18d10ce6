import { runServiceProcess } from '@puente/platform/process';
import { notificationService } from './app.ts';

await runServiceProcess(notificationService());
