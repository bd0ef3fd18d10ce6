import { loadConfig } from '@puente/platform';
import { runServiceProcess } from '@puente/platform/process';
import { identityService, IdentitySettings } from './app.ts';

await runServiceProcess(identityService(loadConfig(IdentitySettings)));
