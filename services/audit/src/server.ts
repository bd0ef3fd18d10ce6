import { runServiceProcess } from '@puente/platform/process';
import { auditService } from './app.ts';

await runServiceProcess(auditService());
