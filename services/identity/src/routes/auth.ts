/**
 * Login with email and password, the current user (read and edit one's name and language) and the header's Log In link.
 * POST /api/auth/logout is the gateway's own (it ends the session it holds).
 */
import type { FastifyInstance } from 'fastify';
import { LockMode } from '@mikro-orm/postgresql';
import { Routes, TOTP_REQUIRED, TwoFactorMessages } from '@puente/contracts';
import { AppError, SESSION_ACTION_HEADER, changed, requireUser, serve, unauthorized } from '@puente/platform';
import { NOT_DELETED, User, normaliseEmail } from '../domain/user.ts';
import { PendingSignup } from '../domain/pending-signup.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { currentUserView } from '../domain/views.ts';
import { editProfile } from '../domain/user-transitions.ts';
import { clientMeta, failureReason, loginAttempt, rawEmail, recordFailure } from '../domain/attempts.ts';
import { failureWait, refusedFor, withFailure } from '../domain/failure-limit.ts';
import { noteLoginDevice } from '../jobs/send-account-notice.ts';
import { twoFactorOn } from '../domain/two-factor.ts';
import { signChallenge } from '../domain/two-factor-keys.ts';
import type { RouteDeps } from './deps.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const UNVERIFIED = 'Please verify your email address before logging in. Check your inbox for the verification link.';
/** The gateway's words for its own per-account login limit. */
export const TOO_MANY_FAILED_LOGINS = 'Too many failed login attempts for this account.';

const invalidCredentials = () => new AppError(401, 'invalid_credentials', INVALID_CREDENTIALS);
const unverified = () => new AppError(403, 'unverified', UNVERIFIED);
const routes = Routes.identity;

export async function authRoutes(app: FastifyInstance, { ctx, config }: RouteDeps): Promise<void> {
  /** 429 while the account has had LOGIN_ACCOUNT_LIMIT wrong passwords in the current window. */
  const refuseWhileLimited = (user: User, now: Date) => {
    const wait = failureWait(user.failedLogins, user.failedLoginsSince, config.loginAccountLimit, now);
    if (wait > 0) throw refusedFor(TOO_MANY_FAILED_LOGINS, wait);
  };

  /**
   * 200 { message } and a session grant for the gateway; 400 validation; 401 wrong email or password (which one is
   * never said); 403 a sign-up not verified yet (said only to someone who knows its password); 429 while the account
   * is past LOGIN_ACCOUNT_LIMIT wrong passwords, right password or not (the gateway limits logins before they get
   * here; this holds for any caller). A failure, whatever it is, is recorded by the onError hook (validation runs
   * before the handler), the success in its transaction, with the device it came from (a new one is emailed to the user).
   * With two-factor sign-in on, a right password answers 200 { message, code: 'totp_required', challenge } instead,
   * and no session.
   */
  serve(app, routes.login, async (request, reply) => {
    const { password } = request.body;
    const email = normaliseEmail(request.body.email);
    const user = await request.em.findOne(User, { email }, { populate: ['passwordHash'] });
    if (!user) {
      const pending = await request.em.findOne(PendingSignup, { email }, { populate: ['passwordHash'] });
      // verifyPassword does the same work with no hash, so an unknown email takes as long as a wrong password.
      if (await verifyPassword(password, pending?.passwordHash)) throw unverified();
      throw invalidCredentials();
    }
    refuseWhileLimited(user, new Date()); // before the password's scrypt work
    const passwordOk = await verifyPassword(password, user.passwordHash);
    // Checked again and counted with the account's row locked: of guesses sent together, those past the limit are
    // refused whatever their password. A success leaves the count as it is (fixed windows of failures).
    await ctx.transaction(async (tx) => {
      const account = await tx.findOneOrFail(User, { id: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const now = new Date();
      refuseWhileLimited(account, now);
      if (passwordOk) return;
      const { failures, since } = withFailure(account.failedLogins, account.failedLoginsSince, config.loginAccountLimit, now);
      account.failedLogins = failures;
      account.failedLoginsSince = since;
      await tx.flush();
    });
    if (!passwordOk) throw invalidCredentials();
    if (!user.emailVerified) throw unverified();
    // With two-factor sign-in on, the password alone starts no session: the second step (routes/two-factor.ts)
    // records the attempt, whichever way it ends.
    if (await twoFactorOn(request.em, user.id)) {
      return { message: TwoFactorMessages.codeRequested, code: TOTP_REQUIRED, challenge: signChallenge(config.twoFactor.challengeKey, user.id, 'password') };
    }
    await ctx.change(async (tx) => {
      const attempt = loginAttempt({ email, method: 'password', status: 'success', failureReason: null, userId: user.id, ...clientMeta(request) });
      await noteLoginDevice(tx, ctx.jobs, user.id, clientMeta(request));
      return changed(undefined, attempt);
    });
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'grant', userId: user.id, role: user.role }));
    return { message: 'Login successful' };
  }, {
    onError: recordFailure(ctx, (request, err) => loginAttempt({
      email: rawEmail(request.body), method: 'password', status: 'failed', failureReason: failureReason(err), ...clientMeta(request),
    })),
  });

  /** The signed-in user (spec section 3 + role, trustScore, trustLevel); 401 when none. */
  serve(app, routes.currentUser, async (request) => {
    const { userId } = requireUser(request);
    const user = await request.em.findOne(User, { id: userId, ...NOT_DELETED });
    if (!user) throw unauthorized();
    return currentUserView(user);
  });

  /** Edit one's own name and language { firstName?, lastName?, language? }: 200 the current user; 400 validation. */
  serve(app, routes.editCurrentUser, async (request) => {
    const { userId } = requireUser(request);
    const input = request.body;
    return ctx.change(async (tx) => {
      // A deleted account is not renamed by a request already on its way: its names would come back everywhere.
      const user = await tx.findOne(User, { id: userId, ...NOT_DELETED });
      if (!user) throw unauthorized();
      const events = editProfile(user, input);
      await tx.flush();
      return changed(currentUserView(user), ...events);
    });
  });

  /** The header's Log In (a browser navigation): 302 to the login page. */
  serve(app, routes.headerLogin, async (_request, reply) => reply.redirect('/login', 302));
}
