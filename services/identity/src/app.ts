/**
 * Identity: users, credentials, referral codes, sign-up, login (password and Google) and the devices signed in from,
 * verification requests and the user directory. Owns schema `identity`. Sessions live in the gateway: identity tells it to start or end them with a
 * signed response header (SESSION_ACTION_HEADER).
 */
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { MailSettings, ProjectionBackfillSchema, blankAsUnset, mailInProduction, testingAids, booleanSetting, requiredInProduction, defineService, mailConfig, publicUrlOf, serviceMailer, type Mailer } from '@puente/platform';
import { UserSchema } from './domain/user.ts';
import { AccountCurrencySchema } from './domain/account-currencies.ts';
import { PendingSignupSchema } from './domain/pending-signup.ts';
import { PasswordResetSchema } from './domain/password-reset.ts';
import { ReferralSchema } from './domain/referral.ts';
import { VerificationRequestSchema } from './domain/verification-request.ts';
import { IdDocumentSchema, idDocumentKeys } from './domain/id-documents.ts';
import { KnownDeviceSchema } from './domain/known-device.ts';
import { ResolvedDisputeSchema } from './domain/directory.ts';
import { TwoFactorSchema } from './domain/two-factor.ts';
import { RecentGoogleSignInSchema } from './domain/reauthentication.ts';
import { challengeKey, secretKeys } from './domain/two-factor-keys.ts';
import { adminPasswordInProduction, printAdminBanner, seedAdmin } from './domain/admin-seed.ts';
import type { IdentityConfig } from './domain/config.ts';
import { googleClient } from './domain/google.ts';
import { noticeDelivery, tokenDelivery } from './domain/mailer.ts';
import type { RouteDeps } from './routes/deps.ts';
import { referralRoutes } from './routes/referrals.ts';
import { signupRoutes } from './routes/signup.ts';
import { authRoutes } from './routes/auth.ts';
import { passwordRoutes } from './routes/passwords.ts';
import { googleRoutes } from './routes/google.ts';
import { userRoutes } from './routes/users.ts';
import { adminRoutes } from './routes/admin.ts';
import { idDocumentRoutes } from './routes/id-documents.ts';
import { internalRoutes } from './routes/internal.ts';
import { personalDataRoutes } from './routes/personal-data.ts';
import { twoFactorRoutes } from './routes/two-factor.ts';
import { signInMethodRoutes } from './routes/sign-in-methods.ts';
import { googleLinkRoutes } from './routes/google-link.ts';
import { consumers } from './events/consumers.ts';
import { PURGE_EXPIRED_TOKENS, purgeExpiredTokens } from './jobs/purge-expired-tokens.ts';
import { sendPasswordReset } from './jobs/send-password-reset.ts';
import { sendAccountNotice } from './jobs/send-account-notice.ts';
import { FORGET_OLD_DEVICES, forgetOldDevicesJob } from './jobs/forget-old-devices.ts';
import { backfill } from './jobs/backfill-projections.ts';

const optional = <S extends z.ZodType>(schema: S) => blankAsUnset(schema.optional());

/** Identity's settings (besides the service settings every process reads). Defaults are applied by identityService. */
export const IdentitySettings = z.object({
  ADMIN_EMAIL: optional(z.email('ADMIN_EMAIL must be an email address')),
  ADMIN_PASSWORD: optional(z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters')),
  ADMIN_REFERRAL_CODE: optional(z.string().regex(/^[A-Za-z0-9-]{4,32}$/, 'ADMIN_REFERRAL_CODE must be 4-32 letters, digits or dashes')),
  EXPOSE_VERIFICATION_TOKEN: optional(booleanSetting),
  // NODE_ENV, SMTP_URL, MAIL_FROM, MAIL_DIR and PUBLIC_URL: the same names in every service that sends email; in
  // production SMTP_URL (or MAIL_DIR) and PUBLIC_URL are required (mailInProduction, below).
  ...MailSettings.shape,
  GOOGLE_CLIENT_ID: optional(z.string()),
  GOOGLE_CLIENT_SECRET: optional(z.string()),
  // openid-client speaks plain http only to a provider on this machine (a local fake): said at start, not at sign-in.
  GOOGLE_ISSUER: optional(z.url({ protocol: /^https?$/, error: 'GOOGLE_ISSUER must be an http(s) URL' }).refine(
    (u) => u.startsWith('https:') || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/i.test(u),
    'GOOGLE_ISSUER must be an https:// URL (http:// only for localhost or 127.0.0.1)',
  )),
  OAUTH_COOKIE_SECRET: optional(z.string().min(32, 'OAUTH_COOKIE_SECRET must be at least 32 characters')),
  LOGIN_CHALLENGE_SECRET: optional(z.string().min(32, 'LOGIN_CHALLENGE_SECRET must be at least 32 characters')),
  TOTP_ENCRYPTION_KEYS: optional(z.string()),
  ID_DOCUMENT_KEYS: optional(z.string()),
  TWO_FACTOR_CODE_LIMIT: optional(z.string().regex(/^\d+\/\d+[smh]$/, 'TWO_FACTOR_CODE_LIMIT is max/window, the window in s, m or h (e.g. 5/15m)')),
  // 'on' (the default): a start without exchange's snapshot of resolved disputes fills the directory's dispute
  // outcomes from it; 'off' where Kafka keeps every event and replaying it suffices (as PROJECTION_BACKFILL elsewhere).
  PROJECTION_BACKFILL: optional(z.enum(['on', 'off'], { error: 'PROJECTION_BACKFILL must be on or off' })),
  LOGIN_ACCOUNT_LIMIT: optional(z.string().regex(/^\d+\/\d+[smh]$/, 'LOGIN_ACCOUNT_LIMIT is max/window, the window in s, m or h (e.g. 120/1h)')),
}).superRefine(requiredInProduction(['TOTP_ENCRYPTION_KEYS', 'ID_DOCUMENT_KEYS', 'OAUTH_COOKIE_SECRET', 'LOGIN_CHALLENGE_SECRET']))
  .refine((s) => Boolean(s.GOOGLE_CLIENT_ID) === Boolean(s.GOOGLE_CLIENT_SECRET), {
  message: 'set both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or neither', path: ['GOOGLE_CLIENT_SECRET'],
}).superRefine(mailInProduction).superRefine(adminPasswordInProduction);
export type IdentitySettings = z.infer<typeof IdentitySettings>;

const DEFAULT_GOOGLE_ISSUER = 'https://accounts.google.com';

/**
 * The key of the Google sign-in cookie: from OAUTH_COOKIE_SECRET (every identity replica has it; required in
 * production), else random for this process (tests; a restart then voids sign-ins under way).
 */
function oauthCookieKey(s: IdentitySettings): Uint8Array {
  return new Uint8Array(createHash('sha256').update(s.OAUTH_COOKIE_SECRET ?? randomBytes(32).toString('hex')).digest());
}

/** `5/15m` as a limit (the form the gateway's rate-limit settings take). */
function codeLimit(value: string): { max: number; windowMs: number } {
  const [, max, amount, unit] = /^(\d+)\/(\d+)([smh])$/.exec(value)!;
  return { max: Math.max(1, Number(max)), windowMs: Math.max(1, Number(amount)) * { s: 1000, m: 60_000, h: 3_600_000 }[unit as 's' | 'm' | 'h'] };
}

export function resolveConfig(s: IdentitySettings): IdentityConfig {
  const publicUrl = publicUrlOf(s);
  return {
    exposeVerificationToken: testingAids(s).verificationToken,
    publicUrl,
    mail: mailConfig(s),
    google: s.GOOGLE_CLIENT_ID && s.GOOGLE_CLIENT_SECRET
      ? {
          clientId: s.GOOGLE_CLIENT_ID,
          clientSecret: s.GOOGLE_CLIENT_SECRET,
          issuer: (s.GOOGLE_ISSUER ?? DEFAULT_GOOGLE_ISSUER).replace(/\/+$/, ''),
          redirectUri: `${publicUrl}/api/auth/google/callback`,
        }
      : null,
    oauthCookieKey: oauthCookieKey(s),
    loginAccountLimit: codeLimit(s.LOGIN_ACCOUNT_LIMIT ?? '120/1h'),
    idDocumentKeys: idDocumentKeys(s.ID_DOCUMENT_KEYS),
    twoFactor: {
      secretKeys: secretKeys(s.TOTP_ENCRYPTION_KEYS),
      challengeKey: challengeKey(s.LOGIN_CHALLENGE_SECRET),
      codeLimit: codeLimit(s.TWO_FACTOR_CODE_LIMIT ?? '5/15m'),
    },
  };
}

const HOURLY_MS = 3600 * 1000;
const DAILY_MS = 24 * HOURLY_MS;

export interface IdentityOptions {
  printAdmin?: (line: string) => void;
  /** Replaces the SMTP transport or mail folder (tests). */
  mailer?: Mailer;
}

export function identityService(settings: IdentitySettings, opts: IdentityOptions = {}) {
  const config = resolveConfig(settings);
  const ownMailer = opts.mailer ? null : serviceMailer(config.mail);
  const mailer = opts.mailer ?? ownMailer!;
  const deliverToken = tokenDelivery(mailer);
  const deliverNotice = noticeDelivery(mailer, config.publicUrl);
  const google = config.google ? googleClient(config.google) : null;
  return defineService({
    name: 'identity',
    entities: [
      UserSchema, AccountCurrencySchema, PendingSignupSchema, PasswordResetSchema, ReferralSchema, VerificationRequestSchema, KnownDeviceSchema, TwoFactorSchema,
      RecentGoogleSignInSchema, IdDocumentSchema, ResolvedDisputeSchema, ProjectionBackfillSchema,
    ],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    jobs: [
      purgeExpiredTokens, sendPasswordReset({ deliverToken, publicUrl: config.publicUrl }),
      sendAccountNotice({ deliver: deliverNotice }), forgetOldDevicesJob, backfill.job,
    ],
    schedules: [
      { job: PURGE_EXPIRED_TOKENS, everyMs: HOURLY_MS, schedulerId: PURGE_EXPIRED_TOKENS },
      { job: FORGET_OLD_DEVICES, everyMs: DAILY_MS, schedulerId: FORGET_OLD_DEVICES },
    ],
    async routes(app, ctx) {
      const deps: RouteDeps = { ctx, config, google, deliverToken };
      app.addHook('onClose', async () => { ownMailer?.close(); });
      await app.register(referralRoutes);
      await app.register(signupRoutes, deps);
      await app.register(authRoutes, deps);
      await app.register(passwordRoutes, deps);
      await app.register(googleRoutes, deps);
      await app.register(googleLinkRoutes, deps);
      await app.register(userRoutes, deps);
      await app.register(adminRoutes, deps);
      await app.register(idDocumentRoutes, deps);
      await app.register(internalRoutes, deps);
      await app.register(personalDataRoutes, deps);
      await app.register(twoFactorRoutes, deps);
      await app.register(signInMethodRoutes, deps);
    },
    async onStart(ctx) {
      await ownMailer?.start(ctx.logger);
      const admin = await ctx.change((tx) => seedAdmin(tx, settings));
      if (admin) printAdminBanner(admin, opts.printAdmin);
      if ((settings.PROJECTION_BACKFILL ?? 'on') === 'on') await backfill.startIfPending(ctx);
    },
  });
}
