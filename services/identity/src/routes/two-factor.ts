/**
 * Two-factor sign-in (TOTP): the signed-in user sets it up (a secret for their app), turns it on with a first code
 * and the proof of the user (routes/reauthentication.ts: the current password, or for a Google-only account a Google
 * sign-in again; recovery codes, shown once), and off with a code and their current password (a Google-only account:
 * the code is the proof); the login's second step takes the challenge the password step answered and a code (or a
 * recovery code) and grants the session. Turning it on or off emails the user (jobs/send-account-notice.ts); a
 * current code from the app and the current password replace the recovery codes.
 *
 * Wrong codes (and wrong passwords here) are counted per user (domain/two-factor.ts): past TWO_FACTOR_CODE_LIMIT they
 * are refused with 429 for the rest of the window, from any IP. A wrong password or code given as proof is a 401; a
 * wrong first code when turning it on is a 400 (the setup is not confirmed). A wrong code at login is a failed login
 * attempt with its own reason (invalid_totp_code, totp_code_reused) in the audit trail. Neither the secret nor a code
 * is ever logged.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LockMode } from '@mikro-orm/postgresql';
import { Routes, TwoFactorMessages as TM, type TwoFactorConfirmRequest } from '@puente/contracts';
import { AppError, SESSION_ACTION_HEADER, conflict, requireUser, serve, unauthorized } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { clientMeta, failureReason, loginAttempt, recordFailure } from '../domain/attempts.ts';
import { newTotpSecret, otpauthUri } from '../domain/totp.ts';
import { TwoFactor, newRecoveryCodes, recoveryCodeHash, twoFactorRecord, type CodeRefusal } from '../domain/two-factor.ts';
import { sealSecret, verifyChallenge, type ChallengeMethod } from '../domain/two-factor-keys.ts';
import { noteAccountChange, noteLoginDevice } from '../jobs/send-account-notice.ts';
import { proofNeeded, proofRefused, reauthentication, type CodeResult } from './reauthentication.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;
const refusalMessage: Record<CodeRefusal, string> = { invalid_totp_code: TM.codeWrong, totp_code_reused: TM.codeReplayed };

export async function twoFactorRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const { ctx, config } = deps;
  const { secretKeys, challengeKey } = config.twoFactor;
  const { withCode, requireRecentGoogleSignIn } = reauthentication(deps);
  /** The account a second step named (once its challenge checked out), for the attempt its failure records. */
  const accountOf = new WeakMap<FastifyRequest, { email: string; userId: number; method: ChallengeMethod }>();

  /** A refused proof: 401 on the field that was wrong (`firstCode`: a wrong code confirming the setup is a 400). */
  const refused = (result: CodeResult & { ok: false }, firstCode = false) => result.refusal === 'wrong_password'
    ? proofRefused('wrong_password', 'currentPassword')
    : proofRefused(result.refusal, 'code', firstCode ? 400 : 401);

  /** The signed-in user with their password hash; 401 when they are gone. */
  async function caller(request: FastifyRequest): Promise<User> {
    const user = await request.em.findOne(User, { id: requireUser(request).userId, ...NOT_DELETED }, { populate: ['passwordHash'] });
    if (!user) throw unauthorized();
    return user;
  }

  /**
   * The current password of an account that has one: 403 when missing; whether it is right (a wrong one is counted
   * with the codes). An account without one gives other proof: a Google sign-in again (turning on), or the code.
   */
  async function passwordOk(request: FastifyRequest, user: User, body: TwoFactorConfirmRequest, turningOn: boolean): Promise<boolean> {
    if (!user.passwordHash) {
      if (turningOn) await requireRecentGoogleSignIn(request, user);
      return true;
    }
    if (body.currentPassword === undefined) throw proofNeeded('password', 'currentPassword');
    return verifyPassword(body.currentPassword, user.passwordHash);
  }

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

  /**
   * { currentPassword, code } → 200 the recovery codes; 403 no proof; 401 a wrong password; 400 a wrong code; 409 no
   * setup waiting; 429 too many.
   */
  serve(app, routes.twoFactorEnable, async (request, reply) => {
    const user = await caller(request);
    const recoveryCodes = newRecoveryCodes();
    const result = await withCode(user.id, request.body.code, await passwordOk(request, user, request.body, true), { enabled: false, recovery: false },
      async (_tx, tf, now) => {
        tf.enabledAt = now;
        tf.recoveryCodeHashes = recoveryCodes.map(recoveryCodeHash);
        await noteAccountChange(ctx.jobs, user.id, 'two-factor-on', now, clientMeta(request));
        return [];
      });
    if (!result.ok) throw refused(result, true);
    reply.header('cache-control', 'no-store');
    // Admin access needs it in production: a new session, signed in with the second factor, takes effect at once.
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'grant', userId: user.id, role: user.role, twoFactor: true }));
    return { recoveryCodes };
  });

  /** { currentPassword, code or recovery code } → 200; 403 no password; 401 a wrong password or code; 409 not on; 429 too many. */
  serve(app, routes.twoFactorDisable, async (request, reply) => {
    const user = await caller(request);
    const result = await withCode(user.id, request.body.code, await passwordOk(request, user, request.body, false), { enabled: true, recovery: true },
      async (tx, tf, now) => {
        tx.remove(tf);
        await noteAccountChange(ctx.jobs, user.id, 'two-factor-off', now, clientMeta(request));
        return [];
      });
    if (!result.ok) throw refused(result);
    // No session may keep a second factor the account no longer has: this one goes on without, the others end.
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'grant', userId: user.id, role: user.role, endOthers: true }));
    return { message: TM.turnedOff };
  });

  /**
   * { currentPassword, code } from the authenticator app → 200 new recovery codes, shown once; the old ones stop
   * working. 403 no password; 401 a wrong password or code (a recovery code is not taken: it would stand in for the
   * app it is meant to replace); 409 not on; 429 too many.
   */
  serve(app, routes.twoFactorRecoveryCodes, async (request, reply) => {
    const user = await caller(request);
    const recoveryCodes = newRecoveryCodes();
    const ok = await passwordOk(request, user, request.body, false);
    const result = await withCode(user.id, request.body.code, ok, { enabled: true, recovery: false }, async (_tx, tf, now) => {
      tf.recoveryCodeHashes = recoveryCodes.map(recoveryCodeHash);
      await noteAccountChange(ctx.jobs, user.id, 'recovery-codes-replaced', now, clientMeta(request));
      return [];
    });
    if (!result.ok) throw refused(result);
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
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'grant', userId: user.id, role: user.role, twoFactor: true }));
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
