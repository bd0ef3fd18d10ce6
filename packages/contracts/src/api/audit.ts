/**
 * Audit: sign-up and login attempts for the admin monitoring page.
 * Calls: GET /api/admin/signup-attempts, /api/admin/login-attempts, /api/admin/signup-failures,
 * /api/admin/login-failures, the lists' CSV exports and the sign-ups and logins per day of the charts.
 */
import { z } from 'zod';
import {
  Count, Id, IsoDateTime, PaginationQuery, ValidationMessages as M, blankToUndefined, optionalText,
} from './common.ts';

/** 'pending' until the sign-up is verified ('completed') or refused ('failed'). */
/**
 * Longest text an attempt field keeps (identity clips before it publishes; audit again for older events). The email
 * is also the event's aggregate id (the outbox's varchar(255)), and no address is longer than 254 characters.
 */
export const AttemptFieldLimits = { email: 254, referralCode: 100, ipAddress: 100, userAgent: 512, failureReason: 200 } as const;

export const SignupAttemptStatus = z.enum(['pending', 'failed', 'completed']);
export type SignupAttemptStatus = z.infer<typeof SignupAttemptStatus>;

/** The sign-up step an attempt reached: the request (form submitted) or the verification of its token. */
export const SignupStep = z.enum(['request', 'verify']);
export type SignupStep = z.infer<typeof SignupStep>;

/** One item of GET /api/admin/signup-attempts. email is recorded as typed (it may be invalid). */
export const SignupAttempt = z.object({
  id: Id,
  email: z.string(),
  step: SignupStep,
  status: SignupAttemptStatus,
  failureReason: z.string().nullable(),
  referralCode: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** A field as sent could not be stored: control characters or unpaired surrogates shown as `\uXXXX`, or cut short. */
  inputAltered: z.boolean(),
  createdAt: IsoDateTime,
});
export type SignupAttempt = z.infer<typeof SignupAttempt>;

export const SignupAttemptList = z.array(SignupAttempt);
export type SignupAttemptList = z.infer<typeof SignupAttemptList>;

export const LoginMethod = z.enum(['password', 'google']);
export type LoginMethod = z.infer<typeof LoginMethod>;

export const LoginAttemptStatus = z.enum(['success', 'failed']);
export type LoginAttemptStatus = z.infer<typeof LoginAttemptStatus>;

/** One item of GET /api/admin/login-attempts. email is recorded as typed (as the identity.login.attempted event carries it). */
export const LoginAttempt = z.object({
  id: Id,
  email: z.string(),
  method: LoginMethod,
  status: LoginAttemptStatus,
  failureReason: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** A field as sent could not be stored: control characters or unpaired surrogates shown as `\uXXXX`, or cut short. */
  inputAltered: z.boolean(),
  createdAt: IsoDateTime,
});
export type LoginAttempt = z.infer<typeof LoginAttempt>;

export const LoginAttemptList = z.array(LoginAttempt);
export type LoginAttemptList = z.infer<typeof LoginAttemptList>;

/**
 * One item of GET /api/admin/signup-failures: failed sign-ups grouped by step and reason, most frequent first.
 * failureReason is null for failures recorded without one (the attempt events allow it).
 */
export const SignupFailureStat = z.object({ step: SignupStep, failureReason: z.string().nullable(), count: Count });
export type SignupFailureStat = z.infer<typeof SignupFailureStat>;

export const SignupFailureStats = z.array(SignupFailureStat);
export type SignupFailureStats = z.infer<typeof SignupFailureStats>;

/** One item of GET /api/admin/login-failures: failed logins grouped by method and reason, most frequent first. */
export const LoginFailureStat = z.object({ method: LoginMethod, failureReason: z.string().nullable(), count: Count });
export type LoginFailureStat = z.infer<typeof LoginFailureStat>;

export const LoginFailureStats = z.array(LoginFailureStat);
export type LoginFailureStats = z.infer<typeof LoginFailureStats>;

/** `YYYY-MM-DD` or a full ISO date-time (UTC); blank means no bound. */
const DateBound = z.preprocess(
  blankToUndefined,
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: M.dateInvalid }).optional(),
);

/**
 * Query of GET /api/admin/signup-attempts and /api/admin/login-attempts: email (a part of the address,
 * case-insensitive), from and to (inclusive; a bare date covers its whole UTC day), limit (default 50, max 500) and
 * offset (default 0). Blank values mean no filter, as a form sends them.
 */
export const AttemptsQuery = PaginationQuery.extend({
  // Not checked as an address: failed sign-ups record whatever was typed, and the admin may look for any part of it
  // (a provider, a surname). Refused with control characters or lone surrogates like any text (the database cannot
  // compare them).
  email: optionalText().meta({
    description: 'A part of the address (its start, middle or end), case-insensitive, surrounding spaces ignored; % and _ are plain characters, not wildcards.',
  }),
  from: DateBound,
  to: DateBound,
});
export type AttemptsQuery = z.infer<typeof AttemptsQuery>;

/**
 * Query of GET /api/admin/signup-failures and /api/admin/login-failures, and of the CSV exports of the attempt lists:
 * the same email, from and to filters as the lists (so the stat cards and the files follow the admin page's
 * filters); no pagination (the groups are few; a file holds every matching attempt).
 */
export const FailureStatsQuery = AttemptsQuery.pick({ email: true, from: true, to: true });
export type FailureStatsQuery = z.infer<typeof FailureStatsQuery>;

/**
 * GET /api/admin/signup-attempts/export and /api/admin/login-attempts/export: the filtered list as a CSV file
 * (text/csv, a header row of the list's field names, then one row per attempt, newest first). A cell that would
 * start with = + - @ (a formula to a spreadsheet) is prefixed with '.
 */
export const AttemptsCsv = z.string().meta({ description: 'CSV (RFC 4180), a header row then one row per attempt.' });
export type AttemptsCsv = z.infer<typeof AttemptsCsv>;

/** The columns of the CSV exports, in order: every field of a list item. */
export const SignupAttemptCsvColumns = SignupAttempt.keyof().options;
export const LoginAttemptCsvColumns = LoginAttempt.keyof().options;

const PeriodMessages = {
  day: 'from and to must be ISO dates (YYYY-MM-DD)',
  order: 'from must not be after to',
  length: 'The period can be at most 366 days',
} as const;
/** The longest period the charts take: a year, leap day included. */
export const MAX_PERIOD_DAYS = 366;
const PeriodDay = z.iso.date({ error: PeriodMessages.day });
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/**
 * Query of the admin page's charts (GET /api/admin/attempts-per-day, /api/admin/exchange-funnel): a period of whole
 * UTC days, from and to inclusive, at most 366 days.
 */
export const AdminPeriodQuery = z.object({ from: PeriodDay, to: PeriodDay })
  .refine((q) => q.from <= q.to, { error: PeriodMessages.order, path: ['from'] })
  .refine((q) => daysBetween(q.from, q.to) < MAX_PERIOD_DAYS, { error: PeriodMessages.length, path: ['to'] });
export type AdminPeriodQuery = z.infer<typeof AdminPeriodQuery>;

/** The instants of a period: from the first day's midnight (UTC), up to (not including) the midnight after the last. */
export function periodInstants(period: AdminPeriodQuery): { start: Date; end: Date } {
  return { start: new Date(`${period.from}T00:00:00.000Z`), end: new Date(Date.parse(`${period.to}T00:00:00.000Z`) + 86_400_000) };
}

/** One UTC day of GET /api/admin/attempts-per-day: its sign-up attempts and login attempts by status. */
export const AttemptsOnDay = z.object({
  date: z.iso.date(),
  signups: z.object({ completed: Count, pending: Count, failed: Count }),
  logins: z.object({ success: Count, failed: Count }),
});
export type AttemptsOnDay = z.infer<typeof AttemptsOnDay>;

/** GET /api/admin/attempts-per-day: every day of the period, oldest first (days without attempts count zeros). */
export const AttemptsPerDay = z.array(AttemptsOnDay);
export type AttemptsPerDay = z.infer<typeof AttemptsPerDay>;

/**
 * The audit service's section of a user's data download (GET /internal/personal-data/attempts): the sign-up and
 * login attempts made with the emails their account signed in or signed up with, newest first.
 */
export const AuditPersonalData = z.object({ signupAttempts: SignupAttemptList, loginAttempts: LoginAttemptList });
export type AuditPersonalData = z.infer<typeof AuditPersonalData>;

/**
 * One item of GET /api/users/me/login-history: a login attempt on the signed-in user's account (made with an email
 * their account signed in or signed up with), as the profile shows it; no email, nor the admin's inputAltered.
 */
export const OwnLoginAttempt = LoginAttempt.pick({
  id: true, method: true, status: true, failureReason: true, ipAddress: true, userAgent: true, createdAt: true,
});
export type OwnLoginAttempt = z.infer<typeof OwnLoginAttempt>;

export const OwnLoginHistory = z.array(OwnLoginAttempt);
export type OwnLoginHistory = z.infer<typeof OwnLoginHistory>;
