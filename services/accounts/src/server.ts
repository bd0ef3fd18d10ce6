import { loadConfig } from '@puente/platform';
import { runServiceProcess } from '@puente/platform/process';
import { accountsService, AccountsSettings } from './app.ts';

await runServiceProcess(accountsService(loadConfig(AccountsSettings)));
