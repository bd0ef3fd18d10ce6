/**
 * The checks behind the proof of the user (domain/reauthentication.ts), shared by the routes of what cannot be undone
 * and by the Google link:
 * - a password is checked against the account's hash; a wrong one is counted on the account's row with the login's
 *   wrong passwords (LOGIN_ACCOUNT_LIMIT: past it, 429, right password or not) and refused with 401;
 * - a code is checked with the user's two-factor row locked (a code is good once) and a wrong one counted on it
 *   (TWO_FACTOR_CODE_LIMIT), as at login;
 * - without a password, and with two-factor sign-in off, a Google sign-in of the caller's session in the last 5 minutes.
 * A missing proof is refused with 403 `reauthentication_required`, its message saying which one to give.
 */
import type { FastifyRequest } from 'fastify';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import {
  REAUTHENTICATION_REQUIRED, ReauthenticationMessages as RM, TwoFactorMessages as TM, type EventEnvelope, type ReauthenticationMethod,
  type ReauthenticationProof,
} from '@puente/contracts';
import { AppError, changed, requireUser } from '@puente/platform';
import { User } from '../domain/user.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { failureWait, refusedFor, withFailure } from '../domain/failure-limit.ts';
import { TwoFactor, codeLimitWait, countWrongCode, twoFactorOn, useCode, type CodeRefusal } from '../domain/two-factor.ts';
import { openSecret } from '../domain/two-factor-keys.ts';
import { googleSignInValidUntil, reauthenticationMethod } from '../domain/reauthentication.ts';
import { TOO_MANY_FAILED_LOGINS } from './auth.ts';
import type { RouteDeps } from './deps.ts';

export type Refusal = CodeRefusal | 'wrong_password';
export type CodeResult = { ok: true } | { ok: false; refusal: Refusal };

const codeMessage: Record<CodeRefusal, string> = { invalid_totp_code: TM.codeWrong, totp_code_reused: TM.codeReplayed };

/** 403: the proof `method` is missing (or, for Google, too old); the message says what to do. */
export function proofNeeded(method: ReauthenticationMethod, field?: string): AppError {
  const message = { password: RM.passwordNeeded, totp: RM.codeNeeded, google: RM.googleNeeded }[method];
  return new AppError(403, REAUTHENTICATION_REQUIRED, message, field ? { errors: [{ field, message }] } : undefined);
}

/** 401: the proof given was wrong, on the field that held it. */
export function proofRefused(refusal: Refusal, field: string, status = 401): AppError {
  const message = refusal === 'wrong_password' ? RM.passwordWrong : codeMessage[refusal];
  return new AppError(status, refusal, message, { errors: [{ field, message }] });
}

export function reauthentication({ ctx, config }: Pick<RouteDeps, 'ctx' | 'config'>) {
  const { secretKeys, codeLimit } = config.twoFactor;

  /**
   * In one transaction, the user's two-factor row locked (two requests cannot both use one code): refused while
   * limited, then the password (checked before, outside the lock) and the code; a wrong one is counted and committed.
   * A good one runs `onGood`, whose events are written with the change. `enabled`: the state the row must be in.
   */
  async function withCode(
    userId: number, code: string, passwordOk: boolean, opts: { enabled: boolean; recovery: boolean },
    onGood: (tx: EntityManager, tf: TwoFactor, now: Date) => Promise<readonly EventEnvelope[]>,
  ): Promise<CodeResult> {
    return ctx.change<CodeResult>(async (tx) => {
      const now = new Date();
      const tf = await tx.findOne(TwoFactor, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!tf || Boolean(tf.enabledAt) !== opts.enabled) {
        if (opts.enabled) throw new AppError(409, 'two_factor_off', TM.notOn);
        throw new AppError(409, tf ? 'two_factor_on' : 'two_factor_not_started', tf ? TM.alreadyOn : TM.notStarted);
      }
      const wait = codeLimitWait(tf, codeLimit, now);
      if (wait > 0) throw refusedFor(TM.tooManyCodes, wait);
      const used = passwordOk ? useCode(tf, openSecret(secretKeys, userId, tf.sealedSecret), code, now, opts.recovery) : 'wrong_password';
      if (used !== 'totp' && used !== 'recovery') {
        countWrongCode(tf, codeLimit, now);
        await tx.flush();
        return changed({ ok: false, refusal: used });
      }
      tf.failedCodes = 0;
      tf.failedSince = null;
      const events = await onGood(tx, tf, now);
      await tx.flush();
      return changed({ ok: true }, ...events);
    });
  }

  /**
   * Whether `password` is the account's. Refused with 429 while the account is past LOGIN_ACCOUNT_LIMIT; a wrong one
   * is counted there, with the row locked, as a wrong password at login is.
   */
  async function passwordMatches(user: User, password: string): Promise<boolean> {
    const wait = (account: User, now: Date) => failureWait(account.failedLogins, account.failedLoginsSince, config.loginAccountLimit, now);
    const before = wait(user, new Date());
    if (before > 0) throw refusedFor(TOO_MANY_FAILED_LOGINS, before); // before the password's scrypt work
    const ok = await verifyPassword(password, user.passwordHash);
    await ctx.transaction(async (tx) => {
      const account = await tx.findOneOrFail(User, { id: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = new Date();
      const left = wait(account, now);
      if (left > 0) throw refusedFor(TOO_MANY_FAILED_LOGINS, left);
      if (ok) return;
      const { failures, since } = withFailure(account.failedLogins, account.failedLoginsSince, config.loginAccountLimit, now);
      account.failedLogins = failures;
      account.failedLoginsSince = since;
      await tx.flush();
    });
    return ok;
  }

  /** The proof this account gives. */
  async function methodOf(em: EntityManager, user: User): Promise<ReauthenticationMethod> {
    return reauthenticationMethod(Boolean(user.passwordHash), await twoFactorOn(em, user.id));
  }

  /**
   * The proof of the user for deleting the account or changing the password (`user` read with its password hash);
   * throws 403 when it is missing, 401 when it is wrong, 429 past the limits.
   */
  async function requireProof(request: FastifyRequest, user: User, proof: ReauthenticationProof): Promise<void> {
    const method = await methodOf(request.em, user);
    if (method === 'password') {
      if (proof.currentPassword === undefined) throw proofNeeded('password', 'currentPassword');
      if (!(await passwordMatches(user, proof.currentPassword))) throw proofRefused('wrong_password', 'currentPassword');
    } else if (method === 'totp') {
      if (proof.totpCode === undefined) throw proofNeeded('totp', 'totpCode');
      const result = await withCode(user.id, proof.totpCode, true, { enabled: true, recovery: false }, async () => []);
      if (!result.ok) throw proofRefused(result.refusal, 'totpCode');
    } else {
      await requireRecentGoogleSignIn(request, user);
    }
  }

  /** 403 unless this session signed in with Google in the last 5 minutes. */
  async function requireRecentGoogleSignIn(request: FastifyRequest, user: User): Promise<void> {
    if (!(await googleSignInValidUntil(request.em, user.id, requireUser(request).sessionId, new Date()))) throw proofNeeded('google');
  }

  return { withCode, passwordMatches, methodOf, requireProof, requireRecentGoogleSignIn };
}
export type Reauthentication = ReturnType<typeof reauthentication>;
