/**
 * Sign-up and login attempts as identity reported them (identity.signup.attempted, identity.login.attempted), one
 * row per event: the event id is unique, so a redelivered event can never make a second row. Rows extend the
 * platform's RecordEntitySchema (id, createdAt; no updatedAt): they change only to be anonymised when their user
 * deletes their account (domain/personal-data.ts); createdAt is the event's occurredAt, when the attempt happened.
 */
import { defineEntity, p } from '@mikro-orm/postgresql';
import type { LoginAttempt as LoginAttemptView, SignupAttempt as SignupAttemptView } from '@puente/contracts';
import { RecordEntitySchema } from '@puente/platform';

/** The key the email filter compares: trimmed and lower-cased (emails compare case-insensitively). */
export const emailKey = (email: string): string => email.trim().toLowerCase();

/**
 * A trigram index on the email key, so the admins' "part of the address" filter (a LIKE with a leading %) need not
 * read every attempt of the year. Its migration creates it only where the pg_trgm extension can be installed (the
 * filter works without it, scanning); declared here by name so that the schema diff keeps it.
 */
const emailKeyTrigrams = (table: string) => ({
  name: `${table}_email_key_trgm_index`,
  expression: (columns: Record<string, string>, schemaTable: { toString(): string }, name: string) =>
    `create index "${name}" on ${String(schemaTable)} using gin ("${columns.emailKey}" gin_trgm_ops)`,
});

export const SignupAttemptSchema = defineEntity({
  name: 'SignupAttempt',
  tableName: 'signup_attempt',
  extends: RecordEntitySchema,
  properties: {
    eventId: p.uuid().unique(),
    /** As typed (it may not be a valid address). */
    email: p.text(),
    emailKey: p.text(),
    step: p.enum(['request', 'verify']),
    status: p.enum(['pending', 'failed', 'completed']),
    failureReason: p.text().nullable(),
    referralCode: p.text().nullable(),
    ipAddress: p.text().nullable(),
    userAgent: p.text().nullable(),
    /** A field had to be escaped or clipped to be stored (by identity or here). */
    inputAltered: p.boolean().default(false),
    /** The account the attempt created (a completed sign-up), when the event said. */
    userId: p.integer().nullable(),
  },
  indexes: [{ properties: ['createdAt'] }, { properties: ['emailKey', 'createdAt'] }, { properties: ['userId'] }, emailKeyTrigrams('signup_attempt')],
});
export class SignupAttempt extends SignupAttemptSchema.class {}
SignupAttemptSchema.setClass(SignupAttempt);

export const LoginAttemptSchema = defineEntity({
  name: 'LoginAttempt',
  tableName: 'login_attempt',
  extends: RecordEntitySchema,
  properties: {
    eventId: p.uuid().unique(),
    /** As typed (it may not be a valid address). */
    email: p.text(),
    emailKey: p.text(),
    method: p.enum(['password', 'google']),
    status: p.enum(['success', 'failed']),
    failureReason: p.text().nullable(),
    ipAddress: p.text().nullable(),
    userAgent: p.text().nullable(),
    /** A field had to be escaped or clipped to be stored (by identity or here). */
    inputAltered: p.boolean().default(false),
    /** The account the attempt signed in to (a successful login), when the event said. */
    userId: p.integer().nullable(),
  },
  indexes: [{ properties: ['createdAt'] }, { properties: ['emailKey', 'createdAt'] }, { properties: ['userId'] }, emailKeyTrigrams('login_attempt')],
});
export class LoginAttempt extends LoginAttemptSchema.class {}
LoginAttemptSchema.setClass(LoginAttempt);

/** The email, from and to filters of the admin queries, as the query schemas in @puente/contracts parse them. */
export interface AttemptFilters { email?: string | undefined; from?: string | undefined; to?: string | undefined }

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A LIKE pattern matching `text` anywhere, its `%`, `_` and `\` taken literally (`\` is LIKE's escape). */
export const containing = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The where-clause for the filters: email a part of the address, case-insensitive (a LIKE on the lower-cased key,
 * which the trigram index serves); from and to inclusive, in UTC. A bare `to` date runs through the end of that day;
 * a date-time bound is that instant.
 */
export function attemptWhere(filters: AttemptFilters): { emailKey?: { $like: string }; createdAt?: { $gte?: Date; $lt?: Date; $lte?: Date } } {
  const where: ReturnType<typeof attemptWhere> = {};
  if (filters.email !== undefined) where.emailKey = { $like: containing(emailKey(filters.email)) };
  const createdAt: NonNullable<typeof where.createdAt> = {};
  if (filters.from !== undefined) createdAt.$gte = DATE_ONLY.test(filters.from) ? new Date(`${filters.from}T00:00:00.000Z`) : new Date(filters.from);
  if (filters.to !== undefined) {
    if (DATE_ONLY.test(filters.to)) createdAt.$lt = new Date(Date.parse(`${filters.to}T00:00:00.000Z`) + DAY_MS);
    else createdAt.$lte = new Date(filters.to);
  }
  if (Object.keys(createdAt).length > 0) where.createdAt = createdAt;
  return where;
}

/** A sign-up attempt as the admin view and the user's data download show it. */
export function signupAttemptView(a: SignupAttempt): SignupAttemptView {
  return {
    id: a.id, email: a.email, step: a.step, status: a.status, failureReason: a.failureReason ?? null,
    referralCode: a.referralCode ?? null, ipAddress: a.ipAddress ?? null, userAgent: a.userAgent ?? null,
    inputAltered: a.inputAltered, createdAt: a.createdAt.toISOString(),
  };
}

/** A login attempt as the admin view and the user's data download show it. */
export function loginAttemptView(a: LoginAttempt): LoginAttemptView {
  return {
    id: a.id, email: a.email, method: a.method, status: a.status, failureReason: a.failureReason ?? null,
    ipAddress: a.ipAddress ?? null, userAgent: a.userAgent ?? null, inputAltered: a.inputAltered,
    createdAt: a.createdAt.toISOString(),
  };
}
