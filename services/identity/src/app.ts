/**
 * Identity: users, credentials, referral codes, sign-up and sessions' users. Owns schema `identity`.
 * This first slice: the user record, the admin seeded on first start, referral-code checks.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { defineService } from '@puente/platform';
import { UserSchema } from './domain/user.ts';
import { AccountCurrencySchema } from './domain/account-currencies.ts';
import { printAdminBanner, seedAdmin } from './domain/admin-seed.ts';
import { referralRoutes } from './routes/referrals.ts';
import { consumers } from './events/consumers.ts';

export const IdentitySettings = z.object({
  ADMIN_EMAIL: z.email('ADMIN_EMAIL must be an email address').optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  ADMIN_REFERRAL_CODE: z.string().regex(/^[A-Za-z0-9-]{4,32}$/, 'ADMIN_REFERRAL_CODE must be 4-32 letters, digits or dashes').optional(),
});
export type IdentitySettings = z.infer<typeof IdentitySettings>;

export function identityService(settings: IdentitySettings, opts: { printAdmin?: (line: string) => void } = {}) {
  return defineService({
    name: 'identity',
    entities: [UserSchema, AccountCurrencySchema],
    migrationsPath: fileURLToPath(new URL('./migrations', import.meta.url)),
    consumers,
    async routes(app) {
      await app.register(referralRoutes);
    },
    async onStart(ctx) {
      const admin = await seedAdmin(ctx.orm.em.fork(), settings);
      if (admin) {
        ctx.relay.kick();
        printAdminBanner(admin, opts.printAdmin);
      }
    },
  });
}
