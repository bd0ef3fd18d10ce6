/**
 * Two-factor sign-in (TOTP): the signed-in user sets it up (a secret for their app), turns it on with a first code
 * and their password (recovery codes, shown once), and off with a code and their password; the login's second step
 * takes the challenge the password step answered and a code (or a recovery code) and grants the session. Turning it on
 * or off emails the user (jobs/send-two-factor-notice.ts); a current code from the app replaces the recovery codes.
 *
 * Wrong codes are counted per user (domain/two-factor.ts): past TWO_FACTOR_CODE_LIMIT they are refused with 429 for
 * the rest of the window, from any IP. A wrong code at login is a failed login attempt with its own reason
 * (invalid_totp_code, totp_code_reused) in the audit trail. Neither the secret nor a code is ever logged.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { Routes, TwoFactorMessages as TM, type EventEnvelope } from '@puente/contracts';
import { AppError, SESSION_ACTION_HEADER, changed, conflict, requireUser, serve, unauthorized } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { clientMeta, failureReason, loginAttempt, recordFailure } from '../domain/attempts.ts';
import { refusedFor } from '../domain/failure-limit.ts';
import { newTotpSecret, otpauthUri } from '../domain/totp.ts';
import {
  TwoFactor, codeLimitWait, countWrongCode, newRecoveryCodes, recoveryCodeHash, twoFactorRecord, useCode, type CodeRefusal,
} from '../domain/two-factor.ts';
import { openSecret, sealSecret, verifyChallenge, type ChallengeMethod } from '../domain/two-factor-keys.ts';
import { noteLoginDevice } from '../jobs/send-new-device-alert.ts';
import { noteTwoFactorChange } from '../jobs/send-two-factor-notice.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;
const refusalMessage: Record<CodeRefusal, string> = { invalid_totp_code: TM.codeWrong, totp_code_reused: TM.codeReplayed };
type Refusal = CodeRefusal | 'wrong_password';
type CodeResult = { ok: true } | { ok: false; refusal: Refusal };

export async function twoFactorRoutes(app: FastifyInstance, { ctx, config }: RouteDeps): Promise<void> {
  const { secretKeys, challengeKey, codeLimit } = config.twoFactor;
  /** The account a second step named (once its challenge checked out), for the attempt its failure records. */
  const accountOf = new WeakMap<FastifyRequest, { email: string; userId: number; method: ChallengeMethod }>();

  const refuseWhileLimited = (tf: TwoFactor, now: Date) => {
    const wait = codeLimitWait(tf, codeLimit, now);
    if (wait > 0) throw refusedFor(TM.tooManyCodes, wait);
  };

  /**
   * In one transaction, the user's row locked (two requests cannot both use one code): refused while limited, then
   * the password (checked before, outside the lock) and the code; a wrong one is counted and committed, and said.
   * A good one runs `onGood`, whose events are written with the change.
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
      refuseWhileLimited(tf, now);
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

  /** A wrong password or code when turning it on or off: 400 on the field that was wrong. */
  const settingsRefusal = (refusal: Refusal) => refusal === 'wrong_password'
    ? new AppError(400, 'wrong_password', TM.passwordWrong, { errors: [{ field: 'password', message: TM.passwordWrong }] })
    : new AppError(400, refusal, refusalMessage[refusal], { errors: [{ field: 'code', message: refusalMessage[refusal] }] });

  /** The signed-in user with their password hash; 401 when they are gone. */
  async function caller(request: FastifyRequest): Promise<User> {
    const user = await request.em.findOne(User, { id: requireUser(request).userId, ...NOT_DELETED }, { populate: ['passwordHash'] });
    if (!user) throw unauthorized();
    return user;
  }
  /** An account without a password (Google only) has nothing to re-enter; one with a password must give it. */
  const passwordOk = async (user: User, password: string | undefined) =>
    !user.passwordHash || (password !== undefined && await verifyPassword(password, user.passwordHash));

  /** 200 { enabled, recoveryCodesLeft } for the signed-in user. */
  serve(app, routes.twoFactorStatus, async (request) => {
    const { userId } = requireUser(request);
    const { enabled, recoveryCodesLeft } = twoFactorRecord(await request.em.findOne(TwoFactor, { userId }));
    return { enabled, recoveryCodesLeft };
  });

  /** 200 a new secret and its otpauth URI (replacing a setup not confirmed yet); 409 when it is already on. */
  serve(app, routes.twoFactorSetup, async (request, reply) => {
    const user = await caller(request);
    const secret = newTotpSecret();
    const sealedSecret = sealSecret(secretKeys, user.id, secret);
    await ctx.transaction(async (tx) => {
      const tf = await tx.findOne(TwoFactor, { userId: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (tf?.enabledAt) throw conflict(TM.alreadyOn, 'two_factor_on');
      if (tf) Object.assign(tf, { sealedSecret, lastUsedStep: null });
      else tx.create(TwoFactor, { userId: user.id, sealedSecret, recoveryCodeHashes: [], failedCodes: 0 });
      await tx.flush();
    });
    reply.header('cache-control', 'no-store');
    return { secret, otpauthUri: otpauthUri(secret, user.email) };
  });

  /** { password, code } → 200 the recovery codes; 400 a wrong password or code; 409 no setup waiting; 429 too many. */
  serve(app, routes.twoFactorEnable, async (request, reply) => {
    const user = await caller(request);
    const recoveryCodes = newRecoveryCodes();
    const result = await withCode(user.id, request.body.code, await passwordOk(user, request.body.password), { enabled: false, recovery: false },
      async (_tx, tf, now) => {
        tf.enabledAt = now;
        tf.recoveryCodeHashes = recoveryCodes.map(recoveryCodeHash);
        await noteTwoFactorChange(ctx.jobs, user.id, 'on', now, clientMeta(request));
        return [];
      });
    if (!result.ok) throw settingsRefusal(result.refusal);
    reply.header('cache-control', 'no-store');
    return { recoveryCodes };
  });

  /** { password, code or recovery code } → 200; 400 a wrong password or code; 409 not on; 429 too many. */
  serve(app, routes.twoFactorDisable, async (request) => {
    const user = await caller(request);
    const result = await withCode(user.id, request.body.code, await passwordOk(user, request.body.password), { enabled: true, recovery: true },
      async (tx, tf, now) => {
        tx.remove(tf);
        await noteTwoFactorChange(ctx.jobs, user.id, 'off', now, clientMeta(request));
        return [];
      });
    if (!result.ok) throw settingsRefusal(result.refusal);
    return { message: TM.turnedOff };
  });

  /**
   * { code } from the authenticator app → 200 new recovery codes, shown once; the old ones stop working. 400 a wrong
   * code (a recovery code is not taken: it would stand in for the app it is meant to replace); 409 not on; 429 too many.
   */
  serve(app, routes.twoFactorRecoveryCodes, async (request, reply) => {
    const { userId } = requireUser(request);
    const recoveryCodes = newRecoveryCodes();
    const result = await withCode(userId, request.body.code, true, { enabled: true, recovery: false }, async (_tx, tf, now) => {
      tf.recoveryCodeHashes = recoveryCodes.map(recoveryCodeHash);
      await noteTwoFactorChange(ctx.jobs, userId, 'recovery-codes', now, clientMeta(request));
      return [];
    });
    if (!result.ok) throw settingsRefusal(result.refusal);
    reply.header('cache-control', 'no-store');
    return { recoveryCodes };
  });

  /**
   * The login's second step { challenge, code }: 200 and a session grant; 401 an expired or forged challenge, or a
   * wrong or used code; 429 too many wrong codes. Every failure is a failed login attempt (the onError hook).
   */
  serve(app, routes.loginTwoFactor, async (request, reply) => {
    const expired = () => new AppError(401, 'challenge_expired', TM.challengeExpired);
    const claim = verifyChallenge(challengeKey, request.body.challenge);
    if (!claim) throw expired();
    const { method } = claim;
    const user = await request.em.findOne(User, { id: claim.userId, ...NOT_DELETED, emailVerified: true });
    if (!user) throw expired();
    accountOf.set(request, { email: user.email, userId: user.id, method });
    const meta = clientMeta(request);
    const result = await withCode(user.id, request.body.code, true, { enabled: true, recovery: true }, async (tx) => {
      const attempt = loginAttempt({ email: user.email, method, status: 'success', failureReason: null, userId: user.id, ...meta });
      await noteLoginDevice(tx, ctx.jobs, user.id, meta);
      return [attempt];
    }).catch((err: unknown) => {
      // Turned off since the password step: the challenge no longer leads anywhere.
      if (err instanceof AppError && err.code === 'two_factor_off') throw expired();
      throw err;
    });
    if (!result.ok) throw new AppError(401, result.refusal, refusalMessage[result.refusal as CodeRefusal]);
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'grant', userId: user.id, role: user.role }));
    return { message: 'Login successful' };
  }, {
    onError: recordFailure(ctx, (request, err) => {
      const account = accountOf.get(request);
      return loginAttempt({
        email: account?.email ?? '', method: account?.method ?? 'password', status: 'failed', failureReason: failureReason(err),
        ...(account ? { userId: account.userId } : {}), ...clientMeta(request),
      });
    }),
  });
}
