/** The gateway as its own process (distributed mode). */
import { z } from 'zod';
import { createLogger, loadConfig, parseServiceUrls } from '@puente/platform';

import { buildGateway } from './app.ts';

const Settings = z.object({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOG_LEVEL: z.string().default('info'),
  SERVICE_URLS: z.string().min(1, 'SERVICE_URLS must map every service to its URL: identity=http://...,accounts=http://...'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  WEB_ROOT: z.string().optional(),
});
const settings = loadConfig(Settings);
const logger = createLogger({ name: 'gateway', level: settings.LOG_LEVEL });
const app = await buildGateway({
  logger, serviceUrls: parseServiceUrls(settings.SERVICE_URLS), trustProxy: settings.TRUST_PROXY === 'true',
  ...(settings.WEB_ROOT ? { webRoot: settings.WEB_ROOT } : {}),
});
await app.listen({ host: settings.HOST, port: settings.PORT });
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => { void app.close().then(() => process.exit(0)); });
}
