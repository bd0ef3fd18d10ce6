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
  REDIS_URL: z.url({ message: 'REDIS_URL must be a redis:// URL' }),
  INTERNAL_TOKEN_SECRET: z.string().min(32, 'INTERNAL_TOKEN_SECRET must be at least 32 characters'),
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(250),
  SERVICE_URLS: z.string().optional(),
  DB_DEBUG: bool.default(false),
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
