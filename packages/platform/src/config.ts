/**
 * Configuration comes from the environment only, parsed once at start by one zod schema per process.
 * A bad or missing variable stops the process with a message naming every offending variable.
 */
import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  - ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new ConfigError(`Invalid configuration; fix these environment variables (see README "Settings"):\n${lines.join('\n')}`);
}

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** A duration setting in whole milliseconds, its message naming the variable and the range. */
function milliseconds(name: string, min: number, max: number) {
  const message = `${name} must be a whole number of milliseconds from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
}

/**
 * Where a process serves Prometheus metrics (GET /metrics, observability/metrics.ts): a listener of its own, off
 * unless METRICS_PORT is set; 0 takes any free port. The host defaults to loopback: set 0.0.0.0 for a scraper
 * in another container.
 */
const PORT_MESSAGE = 'METRICS_PORT must be a port number (0-65535)';
export const MetricsSettings = z.object({
  METRICS_PORT: blankAsUnset(z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(0, PORT_MESSAGE).max(65535, PORT_MESSAGE).optional()),
  METRICS_HOST: z.string().default('127.0.0.1'),
});
export type MetricsSettings = z.infer<typeof MetricsSettings>;

/** How a process proves who it is and checks who calls it (service-keys.ts); the runners generate both. */
export const ServiceKeySettings = z.object({
  SERVICE_SIGNING_KEY: z.string({ error: 'SERVICE_SIGNING_KEY is required: this process\'s Ed25519 key (npm run secrets makes one per service)' }),
  SERVICE_PUBLIC_KEYS: z.string({ error: 'SERVICE_PUBLIC_KEYS is required: name=base64 public key of the gateway and every service' }),
});

/** Settings every service process reads (README "Settings" lists them all). */
export const ServiceSettings = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535),
  DATABASE_URL: z.url({ message: 'DATABASE_URL must be a postgres:// URL' }),
  KAFKA_BROKERS: z.string().min(1, 'KAFKA_BROKERS must list host:port pairs, comma-separated')
    .transform((s) => s.split(',').map((b) => b.trim()).filter(Boolean)),
  KAFKA_CLIENT_ID: z.string().optional(),
  /** How long a Kafka fetch waits for new records (ms; messaging/kafka.ts). */
  KAFKA_FETCH_MAX_WAIT_MS: z.coerce.number({ error: 'KAFKA_FETCH_MAX_WAIT_MS must be a whole number of milliseconds from 10 to 5000' })
    .int().min(10).max(5_000).optional(),
  /**
   * A dead instance's consumer-group partitions go to the other instances once this passes without its heartbeat
   * (ms; heartbeats every third of it, at most every 3 s). A real broker accepts 6 s and up by default.
   */
  KAFKA_SESSION_TIMEOUT_MS: milliseconds('KAFKA_SESSION_TIMEOUT_MS', 1_000, 300_000).default(30_000),
  REDIS_URL: z.url({ message: 'REDIS_URL must be a redis:// URL' }),
  /** This service's Ed25519 key (base64 seed) and every party's public key (service-keys.ts). */
  ...ServiceKeySettings.shape,
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(250),
  /** One instance's outbox relay publishes at a time; a dead one's lease lapses after this (ms), and another takes over. */
  OUTBOX_LEASE_MS: milliseconds('OUTBOX_LEASE_MS', 500, 300_000).default(10_000),
  /** A job whose instance died is run again by another once its lock is this old (ms; checked as often). */
  JOB_LOCK_MS: milliseconds('JOB_LOCK_MS', 1_000, 600_000).default(30_000),
  /** How often a service registers its recurring jobs' schedules again (ms): a Redis that lost its data has them back within this. */
  SCHEDULES_CHECK_MS: milliseconds('SCHEDULES_CHECK_MS', 500, 600_000).default(30_000),
  /** Listen on PORT beside other instances of the service on this machine (SO_REUSEPORT): the kernel spreads connections. */
  REUSE_PORT: bool.default(false),
  SERVICE_URLS: z.string().optional(),
  DB_DEBUG: bool.default(false),
  ...MetricsSettings.shape,
});
export type ServiceSettings = z.infer<typeof ServiceSettings>;

export { bool as booleanSetting };

/** A setting whose empty (or blank) variable counts as unset: compose passes unset optional variables as ''. */
export function blankAsUnset<S extends z.ZodType>(schema: S) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);
}

/** SERVICE_URLS is `identity=http://host:port,accounts=http://...`. */
export function parseServiceUrls(value: string | undefined): Partial<Record<string, string>> {
  const urls: Partial<Record<string, string>> = {};
  for (const pair of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const i = pair.indexOf('=');
    if (i > 0) urls[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return urls;
}
