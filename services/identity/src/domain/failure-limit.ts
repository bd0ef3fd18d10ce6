/**
 * Failures counted per account in fixed windows, on the account's own row in identity's database: wrong two-factor
 * codes (TWO_FACTOR_CODE_LIMIT, on the user's two_factor row) and wrong passwords at login (LOGIN_ACCOUNT_LIMIT, on
 * the user_account row). The first failure opens a window; once it holds `max` failures, the call is refused with 429
 * until the window ends, right answer or not, from any IP. Callers check and count with the row locked, so requests
 * sent together are counted one after the other, and those past the limit are refused.
 */
import { tooManyRequests, type AppError } from '@puente/platform';

/** `max` failures per `windowMs`, from a `max/window` setting (app.ts). */
export interface FailureLimit { max: number; windowMs: number }

/** How long calls are still refused for (ms) after `failures` since `since`; 0 when they may be tried. */
export function failureWait(failures: number, since: Date | null | undefined, limit: FailureLimit, now: Date): number {
  if (!since || failures < limit.max) return 0;
  return Math.max(0, since.getTime() + limit.windowMs - now.getTime());
}

/** The count once one more failure is added: a new window when the last one has ended. */
export function withFailure(failures: number, since: Date | null | undefined, limit: FailureLimit, now: Date): { failures: number; since: Date } {
  if (!since || now.getTime() - since.getTime() >= limit.windowMs) return { failures: 1, since: now };
  return { failures: failures + 1, since };
}

/** 429 `rate_limited` with Retry-After: `message`, then how long to wait, in the gateway's words. */
export function refusedFor(message: string, waitMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return tooManyRequests(`${message} Please try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`, waitMs / 1000);
}
