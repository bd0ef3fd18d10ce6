/** The gateway as its own process (distributed mode): sessions and rate limits in Redis, the live channel on Kafka. */
import { z } from 'zod';
import {
  adminsNeedTwoFactor, checkIndependentSecrets, createLogger, internalAuth, loadConfig, MetricsSettings, parseServiceUrls, serviceKeysFrom, ServiceKeySettings,
  ServiceSettings, startMetrics,
} from '@puente/platform';
import { stopGracefully } from '@puente/platform/process';
import { KafkaBus } from '@puente/platform/kafka';
import { buildGateway, gatewayOptionsFrom, gatewaySettings, LISTEN_BACKLOG } from './app.ts';

const Settings = gatewaySettings.extend({
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVICE_URLS: z.string().min(1, 'SERVICE_URLS must map every service to its URL: identity=http://...,accounts=http://...'),
  ...ServiceKeySettings.shape,
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters'),
  REDIS_URL: z.url({ message: 'REDIS_URL must be a redis:// URL (sessions and rate limits)' }),
  KAFKA_BROKERS: z.string().min(1, 'KAFKA_BROKERS must list host:port pairs, comma-separated (the live channel)')
    .transform((s) => s.split(',').map((b) => b.trim()).filter(Boolean)),
  KAFKA_CLIENT_ID: z.string().default('puente-gateway'),
  KAFKA_FETCH_MAX_WAIT_MS: ServiceSettings.shape.KAFKA_FETCH_MAX_WAIT_MS,
  ...MetricsSettings.shape,
});
const settings = loadConfig(Settings);
checkIndependentSecrets(process.env);
const logger = createLogger({ name: 'gateway', svc: 'gateway', level: settings.LOG_LEVEL });
const bus = new KafkaBus({
  brokers: settings.KAFKA_BROKERS, clientId: settings.KAFKA_CLIENT_ID, logger,
  ...(settings.KAFKA_FETCH_MAX_WAIT_MS ? { fetchMaxWaitMs: settings.KAFKA_FETCH_MAX_WAIT_MS } : {}),
});
// Metrics on a listener of their own: the public port never serves them.
const metrics = await startMetrics(settings);
const app = await buildGateway({
  metrics: metrics?.metrics,
  logger,
  serviceUrls: parseServiceUrls(settings.SERVICE_URLS),
  auth: internalAuth('gateway', serviceKeysFrom('gateway', settings)),
  sessionSecret: settings.SESSION_SECRET,
  redisUrl: settings.REDIS_URL,
  bus,
  adminsNeedTwoFactor: adminsNeedTwoFactor(process.env),
  ...gatewayOptionsFrom(settings),
});
await app.listen({ host: settings.HOST, port: settings.PORT, backlog: LISTEN_BACKLOG });

stopGracefully(logger, async () => {
  await app.close();
  await metrics?.server.close();
  await bus.close();
});
