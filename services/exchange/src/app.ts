/**
 * Exchange: the GBP→CLP rate, exchange requests (and who may take them), matches and their disputes, plan limits,
 * blocks between users, bank details of a confirmed match, the transaction history, the trade timers and the admins' exchange funnel. Owns schema `exchange`. Keeps projections
 * of users, their plan tier and their account currencies from identity, rating, subscription and accounts events.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ProjectionBackfillSchema, ProjectionBackfillSetting, blankAsUnset, defineService, requiredInProduction, sealingKeys } from '@puente/platform';
import { ExchangeRateEntrySchema, seedRate } from './domain/exchange-rate.ts';
import { ExchangeMatchSchema } from './domain/exchange-match.ts';
import { ExchangeRequestSchema } from './domain/exchange-request.ts';
import { TraderAccountSchema, TraderSchema } from './domain/traders.ts';
import { fixedRateProvider, httpRateProvider, type RateProvider } from './domain/rate-provider.ts';
import { toRate } from './domain/rate-value.ts';
import { exchangeRateRoutes } from './routes/exchange-rate.ts';
import { exchangeRequestRoutes } from './routes/exchange-requests.ts';
import { exchangeMatchRoutes } from './routes/exchange-matches.ts';
import { historyRoutes } from './routes/history.ts';
import { personalDataRoutes } from './routes/personal-data.ts';
import { adminRoutes } from './routes/admin.ts';
import { blockRoutes } from './routes/blocks.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { BlockSchema, keptViewerKeys } from './domain/blocks.ts';
import { chatRoutes } from './routes/chat.ts';
import { disputeRoutes } from './routes/disputes.ts';
import { DisputeSchema } from './domain/disputes.ts';
import { TradingSanctionSchema } from './domain/sanctions.ts';
import { ChatMessageSchema } from './domain/chat.ts';
import { ChatAttachmentSchema, type ChatFiles } from './domain/chat-attachments.ts';
import { chatAttachmentRoutes } from './routes/chat-attachments.ts';
import { filesystemStorage, type AttachmentStorage } from './storage/attachment-storage.ts';
import { s3Storage } from './storage/s3-storage.ts';
import { exchangeVersions } from './domain/market-version.ts';
import { REFRESH_EVERY_MS, REFRESH_EXCHANGE_RATE, refreshExchangeRateJob } from './jobs/refresh-exchange-rate.ts';
import { SWEEP_EVERY_MS, SWEEP_TRADE_TIMERS, sweepTradeTimersJob } from './jobs/sweep-trade-timers.ts';
import { backfill } from './jobs/backfill-projections.ts';
import { consumers } from './events/consumers.ts';

const setting = blankAsUnset;

const FIXED_MESSAGE = 'EXCHANGE_RATE_FIXED must be a positive number of CLP per GBP with at most 4 decimals, e.g. 1275.0000';
const TIMEOUT_MESSAGE = 'EXCHANGE_RATE_TIMEOUT_MS must be a whole number of milliseconds from 100 to 60000';
const wholeNumber = (name: string, max: number) => {
  const message = `${name} must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message);
};
const REMINDERS_MESSAGE = 'COMPLETION_REMINDER_HOURS must be whole numbers of hours separated by commas, e.g. 12,48 (or none)';

/** The exchange service's settings (besides the service settings every process reads). */
export const ExchangeSettings = z.object({
  /** The rate when no provider is set, and the one stored at the very first start: £200 = 255,000 CLP. */
  EXCHANGE_RATE_FIXED: setting(z.string().trim().regex(/^(?=.*[1-9])\d{1,8}(\.\d{1,4})?$/, FIXED_MESSAGE)
    .transform(toRate).default('1275.0000')),
  // Rates move money: plain http only to a provider on this machine (a local fake), as GOOGLE_ISSUER.
  EXCHANGE_RATE_URL: setting(z.url({ protocol: /^https?$/, abort: true, error: 'EXCHANGE_RATE_URL must be an http(s) URL' }).refine(
    (u) => u.startsWith('https:') || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|\?|$)/i.test(u),
    'EXCHANGE_RATE_URL must be an https:// URL (http:// only for localhost or 127.0.0.1)',
  ).optional()),
  EXCHANGE_RATE_JSON_PATH: setting(z.string().trim().regex(/^[\w$-]+(\.[\w$-]+)*$/,
    'EXCHANGE_RATE_JSON_PATH must be dot-separated keys to the rate in the answer, e.g. rates.CLP').optional()),
  EXCHANGE_RATE_TIMEOUT_MS: setting(z.coerce.number({ error: TIMEOUT_MESSAGE }).int(TIMEOUT_MESSAGE)
    .min(100, TIMEOUT_MESSAGE).max(60_000, TIMEOUT_MESSAGE).default(5_000)),
  /** A pending match the requester has not approved expires after this many hours (the request reopens). */
  MATCH_APPROVAL_HOURS: setting(wholeNumber('MATCH_APPROVAL_HOURS', 720).default(24)),
  /** Hours after approval at which both parties of a match still not completed are reminded ('none' for never). */
  COMPLETION_REMINDER_HOURS: setting(z.string().trim().regex(/^(none|\d{1,4}(\s*,\s*\d{1,4})*)$/, REMINDERS_MESSAGE)
    .transform((v) => (v === 'none' ? [] : v.split(',').map(Number)))
    .pipe(z.array(z.number().int().min(1, REMINDERS_MESSAGE))).default([12, 48])),
  /** An open request nobody took expires after this many days. */
  REQUEST_EXPIRY_DAYS: setting(wholeNumber('REQUEST_EXPIRY_DAYS', 3650).default(30)),
  /**
   * 'on': a start without the projections' snapshots fills them from identity and accounts (internal routes).
   * 'off' where Kafka keeps every event from the beginning and replaying it suffices.
   */
  PROJECTION_BACKFILL: ProjectionBackfillSetting,
  /** Chat attachments' sealed bytes go to this folder (default .data/attachments), unless ATTACHMENT_S3_BUCKET is set. */
  ATTACHMENT_STORAGE_DIR: setting(z.string().trim().optional()),
  ATTACHMENT_S3_BUCKET: setting(z.string().trim().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'ATTACHMENT_S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots or dashes)').optional()),
  ATTACHMENT_S3_ENDPOINT: setting(z.url({ protocol: /^https?$/, error: 'ATTACHMENT_S3_ENDPOINT must be an http(s) URL' }).optional()),
  ATTACHMENT_S3_REGION: setting(z.string().trim().optional()),
  /** keyId:base64key,... (the first seals, all open); required in production, else a key of this process alone. */
  ATTACHMENT_ENCRYPTION_KEYS: setting(z.string().optional()),
  NODE_ENV: setting(z.enum(['development', 'production', 'test']).optional()),
}).superRefine(requiredInProduction(['ATTACHMENT_ENCRYPTION_KEYS'])).refine((s) => !s.EXCHANGE_RATE_URL || s.EXCHANGE_RATE_JSON_PATH, {
  message: 'EXCHANGE_RATE_JSON_PATH is required with EXCHANGE_RATE_URL (e.g. rates.CLP)', path: ['EXCHANGE_RATE_JSON_PATH'],
});
export type ExchangeSettings = z.infer<typeof ExchangeSettings>;

/** The HTTP provider when a URL is set, else the fixed rate. */
export function rateProviderFrom(settings: ExchangeSettings): RateProvider {
  const { EXCHANGE_RATE_URL: url, EXCHANGE_RATE_JSON_PATH: jsonPath } = settings;
  return url && jsonPath
    ? httpRateProvider({ url, jsonPath, timeoutMs: settings.EXCHANGE_RATE_TIMEOUT_MS })
    : fixedRateProvider(settings.EXCHANGE_RATE_FIXED);
}

/** The S3-compatible bucket when one is set, else the folder. */
export function attachmentStorageFrom(settings: ExchangeSettings): AttachmentStorage {
  const { ATTACHMENT_S3_BUCKET: bucket, ATTACHMENT_S3_ENDPOINT: endpoint, ATTACHMENT_S3_REGION: region } = settings;
  if (bucket) return s3Storage({ bucket, ...(endpoint ? { endpoint } : {}), ...(region ? { region } : {}) });
  return filesystemStorage(settings.ATTACHMENT_STORAGE_DIR ?? '.data/attachments');
}

/** Where chat attachments go and the keys that seal them (a bad ATTACHMENT_ENCRYPTION_KEYS stops the start). */
export function chatFilesFrom(settings: ExchangeSettings): ChatFiles {
  return {
    storage: attachmentStorageFrom(settings),
    keys: sealingKeys({ name: 'ATTACHMENT_ENCRYPTION_KEYS', value: settings.ATTACHMENT_ENCRYPTION_KEYS, ephemeral: true }),
  };
}

export interface ExchangeOptions {
  /** The clock of the routes and the timers (tests move it across days, months and deadlines). */
  now?: () => Date;
}

export function exchangeService(settings: ExchangeSettings, { now = () => new Date() }: ExchangeOptions = {}) {
  const provider = rateProviderFrom(settings);
  const files = chatFilesFrom(settings);
  const timers = {
    matchApprovalHours: settings.MATCH_APPROVAL_HOURS,
    completionReminderHours: settings.COMPLETION_REMINDER_HOURS,
    requestExpiryDays: settings.REQUEST_EXPIRY_DAYS,
  };
  return defineService({
    name: 'exchange',
    entities: [ExchangeRateEntrySchema, ExchangeRequestSchema, ExchangeMatchSchema, TraderSchema, TraderAccountSchema, BlockSchema, ChatMessageSchema, ChatAttachmentSchema, DisputeSchema, TradingSanctionSchema, ProjectionBackfillSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers: consumers(files),
    versions: exchangeVersions,
    keptKeys: keptViewerKeys,
    jobs: [refreshExchangeRateJob(provider, settings.EXCHANGE_RATE_TIMEOUT_MS), sweepTradeTimersJob(timers, now), backfill.job],
    schedules: [
      { job: REFRESH_EXCHANGE_RATE, everyMs: REFRESH_EVERY_MS, schedulerId: REFRESH_EXCHANGE_RATE },
      { job: SWEEP_TRADE_TIMERS, everyMs: SWEEP_EVERY_MS, schedulerId: SWEEP_TRADE_TIMERS },
    ],
    async onStart(ctx) {
      const { orm, logger } = ctx;
      // The very first start stores the fixed rate, so the route has a rate before any provider has answered.
      const seeded = await seedRate(orm.em, { rate: settings.EXCHANGE_RATE_FIXED, source: 'fixed', fetchedAt: new Date() });
      if (seeded) logger.info({ rate: settings.EXCHANGE_RATE_FIXED }, 'no exchange rate stored yet: stored the fixed rate');
      logger.info({ storage: files.storage.description }, 'chat attachments are stored sealed');
      if (settings.PROJECTION_BACKFILL === 'on') await backfill.startIfPending(ctx);
    },
    async routes(app, ctx) {
      const deps = { ctx, now };
      await app.register(exchangeRateRoutes);
      await app.register(exchangeRequestRoutes(deps));
      await app.register(exchangeMatchRoutes(deps));
      await app.register(historyRoutes(deps));
      await app.register(personalDataRoutes);
      await app.register(adminRoutes);
      await app.register(blockRoutes(deps));
      await app.register(chatRoutes({ ctx, now }));
      await app.register(chatAttachmentRoutes({ ctx, now, files }));
      await app.register(analyticsRoutes);
      await app.register(disputeRoutes(deps));
    },
  });
}
