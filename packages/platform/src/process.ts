/**
 * Running one service as its own process (distributed mode): settings from the environment, Kafka, BullMQ on
 * Redis, Postgres; graceful shutdown on SIGTERM/SIGINT. A service's src/server.ts is one call to this.
 */
import closeWithGrace from 'close-with-grace';
import { loadConfig, parseServiceUrls, ServiceSettings } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { serviceKeysFrom } from './service-keys.ts';
import { checkIndependentSecrets } from './independent-secrets.ts';
import { KafkaBus } from './messaging/kafka.ts';
import { BullMqJobQueue } from './jobs/bullmq.ts';
import { RedisVersionStore } from './http/versions.ts';
import { Redis } from 'ioredis';
import { startService, type RunningService, type ServiceDefinition } from './service.ts';
import { adminsNeedTwoFactor } from './testing-aids.ts';
import { startMetrics } from './observability/metrics.ts';
import { flushTraces } from './observability/spans.ts';

export async function runServiceProcess(def: ServiceDefinition, env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const settings = loadConfig(ServiceSettings, env);
  checkIndependentSecrets(env);
  const logger = createLogger({ name: def.name, svc: def.name, level: settings.LOG_LEVEL });
  const bus = new KafkaBus({
    brokers: settings.KAFKA_BROKERS, clientId: settings.KAFKA_CLIENT_ID ?? `puente-${def.name}`, logger,
    ...(settings.KAFKA_FETCH_MAX_WAIT_MS ? { fetchMaxWaitMs: settings.KAFKA_FETCH_MAX_WAIT_MS } : {}),
    sessionTimeoutMs: settings.KAFKA_SESSION_TIMEOUT_MS,
    // Kafka's advice: heartbeats at most a third of the session apart, so one lost heartbeat is not a departure.
    heartbeatIntervalMs: Math.min(3_000, Math.floor(settings.KAFKA_SESSION_TIMEOUT_MS / 3)),
  });
  const queues: BullMqJobQueue[] = [];
  // No queue while disconnected: a poll's version read fails at once (the poll is answered in full) instead of
  // waiting for the reconnection attempts; a bump that fails is made once Redis is back (RedisVersionStore).
  const redis = new Redis(settings.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: false });
  redis.on('error', (err) => logger.warn({ err }, 'redis (polled routes\' versions) is not reachable'));
  const metrics = await startMetrics(settings);
  const running = await startService(def, {
    metrics: metrics?.metrics,
    databaseUrl: settings.DATABASE_URL,
    bus,
    jobs: (service) => {
      const q = new BullMqJobQueue({ redisUrl: settings.REDIS_URL, queueName: `puente-${service}`, logger, lockMs: settings.JOB_LOCK_MS });
      queues.push(q);
      return q;
    },
    keys: serviceKeysFrom(def.name, settings),
    logger,
    serviceUrls: parseServiceUrls(settings.SERVICE_URLS),
    outboxPollMs: settings.OUTBOX_POLL_MS,
    schedulesCheckMs: settings.SCHEDULES_CHECK_MS,
    outboxLeaseMs: settings.OUTBOX_LEASE_MS,
    dbDebug: settings.DB_DEBUG,
    versions: new RedisVersionStore(redis),
    adminsNeedTwoFactor: adminsNeedTwoFactor(settings),
  }, { host: settings.HOST, port: settings.PORT, reusePort: settings.REUSE_PORT });
  // A runner that started this process (infra/distributed.ts) hears it is ready from it: asking /ready on a port that
  // several instances share may reach another one.
  if (process.connected) process.send?.({ type: 'ready', url: running.url });

  stopGracefully(logger, async () => {
    await running.stop();
    await metrics?.server.close();
    await bus.close();
    await redis.quit().catch(() => redis.disconnect());
  });
  return running;
}

/** How long a process may take to stop before it is ended anyway. */
export const SHUTDOWN_GRACE_MS = 15_000;

/**
 * The one shutdown every process uses (close-with-grace): on SIGINT, SIGTERM or an uncaught error, `stop` runs once
 * and the process exits (1 after an error, or when `stop` takes over SHUTDOWN_GRACE_MS; a second signal ends it).
 */
export function stopGracefully(logger: Pick<Logger, 'info' | 'error'>, stop: () => Promise<void>): void {
  closeWithGrace({
    delay: SHUTDOWN_GRACE_MS,
    logger: { error: (message: unknown) => logger.error({ detail: message }, 'shutdown') },
    // Ctrl+C reaches a runner and its children together, and the runner then asks each child to stop (SIGTERM):
    // that second signal must not cut a graceful stop short (consumers leaving their groups). A second Ctrl+C does.
    onSecondSignal: (signal) => {
      if (signal === 'SIGTERM') logger.info({ signal }, 'already stopping');
      else process.exit(1);
    },
  }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'stopping after an uncaught error');
    else logger.info({ signal }, 'shutting down');
    await stop();
    await flushTraces(); // the spans of the last requests, before the exit
  });
}
