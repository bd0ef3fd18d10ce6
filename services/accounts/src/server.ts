import { runServiceProcess } from '@puente/platform/process';
import { accountsService } from './app.ts';

await runServiceProcess(accountsService());
