/**
 * Running one service as its own process (distributed mode): settings from the environment, Kafka, BullMQ on
 * Redis, Postgres; graceful shutdown on SIGTERM/SIGINT. A service's src/server.ts is one call to this.
 */
import { loadConfig, parseServiceUrls, ServiceSettings } from './config.ts';
import { createLogger } from './logger.ts';
import { internalAuth } from './auth.ts';
import { KafkaBus } from './messaging/kafka.ts';
import { BullMqJobQueue } from './jobs/bullmq.ts';
import { startService, type RunningService, type ServiceDefinition } from './service.ts';

export async function runServiceProcess(def: ServiceDefinition, env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const settings = loadConfig(ServiceSettings, env);
  const logger = createLogger({ name: def.name, level: settings.LOG_LEVEL });
  const bus = new KafkaBus({ brokers: settings.KAFKA_BROKERS, clientId: settings.KAFKA_CLIENT_ID ?? `puente-${def.name}`, logger });
  const queues: BullMqJobQueue[] = [];
  const running = await startService(def, {
    databaseUrl: settings.DATABASE_URL,
    bus,
    jobs: (service) => {
      const q = new BullMqJobQueue({ redisUrl: settings.REDIS_URL, queueName: `puente-${service}`, logger });
      queues.push(q);
      return q;
    },
    auth: internalAuth(settings.INTERNAL_TOKEN_SECRET),
    logger,
    serviceUrls: parseServiceUrls(settings.SERVICE_URLS),
    outboxPollMs: settings.OUTBOX_POLL_MS,
    dbDebug: settings.DB_DEBUG,
  }, { host: settings.HOST, port: settings.PORT });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => { logger.error('shutdown took over 15 s; exiting'); process.exit(1); }, 15_000);
    force.unref();
    try {
      await running.stop();
      await bus.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return running;
}
