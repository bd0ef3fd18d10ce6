/**
 * Linking a Google account to an existing account (domain/google-link.ts): the Google callback left the pending link
 * in a sealed cookie and sent the browser to /link-google. GET /auth/google/link says which account it is for (its
 * email) and whether a code is asked; POST /auth/google/link takes the account's password, once, and the app's code
 * (or a recovery code) when two-factor sign-in is on. Then, in one transaction, the link is made, the login is
 * recorded (method google) with its device, and the user is emailed (jobs/send-account-notice.ts); the cookie
 * is cleared and the gateway starts the session.
 *
 * A wrong password is counted with the login's (LOGIN_ACCOUNT_LIMIT) and a wrong code with the codes
 * (TWO_FACTOR_CODE_LIMIT), as at login (routes/reauthentication.ts); each failure is a failed login attempt (method
 * google) in the audit trail.
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import { GOOGLE_LINK_EXPIRED, GoogleLinkMessages, Routes, type EventEnvelope } from '@puente/contracts';
import { AppError, SESSION_ACTION_HEADER, changed, conflict, serve } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { linkGoogleAccount } from '../domain/user-transitions.ts';
import { GOOGLE_LINK_COOKIE, googleLinkCookieOptions, openPendingLink, type PendingLink } from '../domain/google-link.ts';
import { twoFactorOn } from '../domain/two-factor.ts';
import { clientMeta, failureReason, loginAttempt, recordFailure, type ClientMeta } from '../domain/attempts.ts';
import { noteAccountChange, noteLoginDevice } from '../jobs/send-account-notice.ts';
import { proofNeeded, proofRefused, reauthentication } from './reauthentication.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;
const expired = () => new AppError(401, GOOGLE_LINK_EXPIRED, GoogleLinkMessages.expired);
const passwordWrong = () => new AppError(401, 'wrong_password', GoogleLinkMessages.passwordWrong, {
  errors: [{ field: 'password', message: GoogleLinkMessages.passwordWrong }],
});

export async function googleLinkRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const { ctx, config } = deps;
  const { withCode, passwordMatches } = reauthentication(deps);
  await app.register(cookie);
  const cookieOptions = googleLinkCookieOptions(config.publicUrl.startsWith('https:'));
  /** The account a link named (once its cookie opened), for the attempt its failure records. */
  const accountOf = new WeakMap<FastifyRequest, PendingLink>();

  /**
   * The pending link and its account, still as it was: the same email, no Google account linked since. Otherwise
   * the cookie is cleared and 401.
   */
  async function pendingFor(request: FastifyRequest, reply: FastifyReply): Promise<{ link: PendingLink; user: User }> {
    const link = await openPendingLink(config.oauthCookieKey, request.cookies[GOOGLE_LINK_COOKIE]);
    const user = link && await request.em.findOne(User, { id: link.userId, email: link.email, ...NOT_DELETED }, { populate: ['passwordHash'] });
    if (!link || !user || user.googleSubject || !user.passwordHash) {
      reply.clearCookie(GOOGLE_LINK_COOKIE, cookieOptions);
      throw expired();
    }
    accountOf.set(request, link);
    return { link, user };
  }

  /** In the caller's transaction: the link, the login it is, its device and the email saying so. */
  async function link(tx: EntityManager, pending: PendingLink, meta: ClientMeta, now: Date): Promise<EventEnvelope[]> {
    // The Google account went to another account meanwhile (its own sign-up): nothing to link.
    if (await tx.count(User, { googleSubject: pending.subject }) > 0) throw conflict(GoogleLinkMessages.expired, GOOGLE_LINK_EXPIRED);
    const user = await tx.findOneOrFail(User, { id: pending.userId });
    linkGoogleAccount(user, pending.subject, now);
    await tx.flush();
    await noteLoginDevice(tx, ctx.jobs, user.id, meta);
    await noteAccountChange(ctx.jobs, user.id, 'google-linked', now, meta);
    return [loginAttempt({ email: user.email, method: 'google', status: 'success', failureReason: null, userId: user.id, ...meta })];
  }

  /** 200 { email, twoFactor } of the pending link; 401 when there is none (or it expired). */
  serve(app, routes.pendingGoogleLink, async (request, reply) => {
    const { user } = await pendingFor(request, reply);
    return { email: user.email, twoFactor: await twoFactorOn(request.em, user.id) };
  });

  /**
   * { password, code? } → 200 and a session grant; 401 expired, a wrong password or code; 403 the code missing
   * (two-factor on); 429 past the limits. Every failure is a failed login attempt (the onError hook).
   */
  serve(app, routes.linkGoogle, async (request, reply) => {
    const { link: pending, user } = await pendingFor(request, reply);
    const meta = clientMeta(request);
    const { password, code } = request.body;
    if (!(await passwordMatches(user, password))) throw passwordWrong();
    const withSecondFactor = await twoFactorOn(request.em, user.id);
    if (withSecondFactor) {
      if (code === undefined) throw proofNeeded('totp', 'code');
      const result = await withCode(user.id, code, true, { enabled: true, recovery: true }, async (tx, _tf, now) => link(tx, pending, meta, now));
      if (!result.ok) throw proofRefused(result.refusal, 'code');
    } else {
      await ctx.change(async (tx) => changed(undefined, ...await link(tx, pending, meta, new Date())));
    }
    reply.clearCookie(GOOGLE_LINK_COOKIE, cookieOptions);
    // Signed in with the second factor when the code was asked, as at the login's code step (admin access needs it).
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({
      action: 'grant', userId: user.id, role: user.role, ...(withSecondFactor ? { twoFactor: true as const } : {}),
    }));
    return { message: GoogleLinkMessages.linked };
  }, {
    onError: recordFailure(ctx, (request, err) => {
      const pending = accountOf.get(request);
      return loginAttempt({
        email: pending?.email ?? '', method: 'google', status: 'failed', failureReason: failureReason(err),
        ...(pending ? { userId: pending.userId } : {}), ...clientMeta(request),
      });
    }),
  });
}
