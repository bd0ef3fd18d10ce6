import { runServiceProcess } from '@puente/platform/process';
import { exchangeService } from './app.ts';

await runServiceProcess(exchangeService());
