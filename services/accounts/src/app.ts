/**
 * Accounts: each user's GBP and CLP bank accounts (at most one of each), validated as a bank would and with their
 * details encrypted at rest. Owns schema `accounts`. Publishes accounts.bank-account.added/updated/removed;
 * consumes the exchange service's match events to lock a party's accounts while a match is in progress and to keep
 * the copy of them a confirmed match shows, and identity's profile names to flag an account whose holder is not its
 * owner's name.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ProjectionBackfillSchema, ProjectionBackfillSetting, defineService, type SealingKeys } from '@puente/platform';
import { BankAccountSchema } from './domain/bank-account.ts';
import { TradeLockSchema } from './domain/trade-lock.ts';
import { MatchAccountSnapshotSchema } from './domain/match-snapshot.ts';
import { ProfileNameSchema } from './domain/profile-name.ts';
import { bankCipher, parseEncryptionKeys } from './domain/encryption.ts';
import { bankAccountRoutes } from './routes/bank-accounts.ts';
import { internalRoutes } from './routes/internal.ts';
import { RESEAL_JOB, resealJob } from './jobs/reseal-bank-accounts.ts';
import { PURGE_SNAPSHOTS_EVERY_MS, PURGE_SNAPSHOTS_JOB, purgeSnapshotsJob } from './jobs/purge-match-snapshots.ts';
import { backfill } from './jobs/backfill-profile-names.ts';
import { accountsConsumers } from './events/consumers.ts';

export const AccountsSettings = z.object({
  /** `keyId:base64key[,keyId2:base64key2...]`, 32-byte keys; the first encrypts, all decrypt (rotation). */
  BANK_ENCRYPTION_KEYS: z
    .string({ error: 'BANK_ENCRYPTION_KEYS is required: keyId:base64key with a 32-byte key, e.g. k1:$(openssl rand -base64 32)' })
    .transform((value, ctx): SealingKeys => {
      try {
        return parseEncryptionKeys(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * 'on': a start without the profile names' snapshot fills it from identity (internal route).
   * 'off' where Kafka keeps every event from the beginning and replaying it suffices.
   */
  PROJECTION_BACKFILL: ProjectionBackfillSetting,
});
export type AccountsSettings = z.infer<typeof AccountsSettings>;

export function accountsService(settings: AccountsSettings) {
  const cipher = bankCipher(settings.BANK_ENCRYPTION_KEYS);
  return defineService({
    name: 'accounts',
    entities: [BankAccountSchema, TradeLockSchema, MatchAccountSnapshotSchema, ProfileNameSchema, ProjectionBackfillSchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers: accountsConsumers(cipher),
    jobs: [resealJob(cipher), purgeSnapshotsJob, backfill.job],
    schedules: [
      { job: RESEAL_JOB, everyMs: 3_600_000, schedulerId: RESEAL_JOB },
      { job: PURGE_SNAPSHOTS_JOB, everyMs: PURGE_SNAPSHOTS_EVERY_MS, schedulerId: PURGE_SNAPSHOTS_JOB },
    ],
    async onStart(ctx) {
      if (settings.PROJECTION_BACKFILL === 'on') await backfill.startIfPending(ctx);
    },
    async routes(app, ctx) {
      await app.register(bankAccountRoutes(ctx, cipher));
      await app.register(internalRoutes(cipher));
    },
  });
}
