import { loadConfig } from '@puente/platform';
import { runServiceProcess } from '@puente/platform/process';
import { auditService, AuditSettings } from './app.ts';

await runServiceProcess(auditService(loadConfig(AuditSettings)));
