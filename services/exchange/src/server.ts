import { loadConfig } from '@puente/platform';
import { runServiceProcess } from '@puente/platform/process';
import { exchangeService, ExchangeSettings } from './app.ts';

await runServiceProcess(exchangeService(loadConfig(ExchangeSettings)));
