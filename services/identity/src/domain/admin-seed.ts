/**
 * The first admin, so the first real user has a referral code to sign up with. Created once, on the first
 * start; its credentials come from ADMIN_EMAIL / ADMIN_PASSWORD / ADMIN_REFERRAL_CODE. Outside production (the demo)
 * a missing password and referral code are generated and printed once (to the terminal, never to the structured log);
 * in production ADMIN_PASSWORD is required (adminPasswordInProduction): a generated password would sit in a log.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigError, changed, type Changed } from '@puente/platform';
import { User, normaliseEmail } from './user.ts';
import { hashPassword } from './passwords.ts';
import { newReferralCode, normaliseReferralCode } from './referral-codes.ts';
import { registered } from './user-transitions.ts';

export interface AdminSettings {
  NODE_ENV?: string | undefined;
  ADMIN_EMAIL?: string | undefined;
  ADMIN_PASSWORD?: string | undefined;
  ADMIN_REFERRAL_CODE?: string | undefined;
}

export interface SeededAdmin { email: string; password: string; referralCode: string; passwordGenerated: boolean }

export const ADMIN_PASSWORD_REQUIRED = 'ADMIN_PASSWORD is required in production: the first admin\'s password (8 or more characters), chosen by you, never generated';

const production = (settings: AdminSettings) => settings.NODE_ENV === 'production';

/** The settings schema's check (like requiredInProduction, with its own words: no script makes this one). */
export function adminPasswordInProduction(settings: AdminSettings, ctx: z.RefinementCtx): void {
  if (production(settings) && !settings.ADMIN_PASSWORD) ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: ADMIN_PASSWORD_REQUIRED });
}

/**
 * Creates the admin if there is none, in the caller's transaction (ServiceContext.change): what to print and the
 * registration's event, or null when an admin already existed.
 */
export async function seedAdmin(tx: EntityManager, settings: AdminSettings): Promise<Changed<SeededAdmin | null>> {
  if (await tx.count(User, { role: 'admin' }) > 0) return changed(null);
  // The settings refuse this already; kept here too, so no path ever generates one in production.
  if (production(settings) && !settings.ADMIN_PASSWORD) throw new ConfigError(ADMIN_PASSWORD_REQUIRED);
  const email = normaliseEmail(settings.ADMIN_EMAIL ?? 'admin@puente.local');
  const passwordGenerated = !settings.ADMIN_PASSWORD;
  const password = settings.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  const referralCode = settings.ADMIN_REFERRAL_CODE ? normaliseReferralCode(settings.ADMIN_REFERRAL_CODE) : newReferralCode();
  const admin = tx.create(User, {
    email, passwordHash: await hashPassword(password), firstName: 'Puente', lastName: 'Admin', profileImageUrl: null,
    role: 'admin', referralCode, referredById: null, emailVerified: true, trustRating: null,
  });
  await tx.flush();
  return changed({ email, password, referralCode, passwordGenerated }, ...registered(admin));
}

export function printAdminBanner(admin: SeededAdmin, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): void {
  out('');
  out('  Puente admin account created (shown once):');
  out(`    email:         ${admin.email}`);
  out(`    password:      ${admin.passwordGenerated ? admin.password : '(the ADMIN_PASSWORD you set)'}`);
  out(`    referral code: ${admin.referralCode}   (new users sign up at /register/${admin.referralCode})`);
  out('');
}
