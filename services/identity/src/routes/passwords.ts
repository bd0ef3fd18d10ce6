/**
 * Passwords beyond the spec: forgot (emails a single-use reset token valid for an hour; the token is only ever in
 * that email, never in a response; asked with `unlinkGoogle`, it also removes the linked Google account), reset with
 * the token (ends every session of the user), and change while signed
 * in with the proof of the user (routes/reauthentication.ts; ends the user's other sessions). A Google-only account
 * sets its first password the same way.
 */
import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { AppError, SESSION_ACTION_HEADER, changed, requireUser, serve, unauthorized } from '@puente/platform';
import { NOT_DELETED, User, normaliseEmail } from '../domain/user.ts';
import { PasswordReset } from '../domain/password-reset.ts';
import { hashPassword } from '../domain/passwords.ts';
import { tokenHash } from '../domain/tokens.ts';
import { sessionsEnded } from '../domain/sessions-ended.ts';
import { SEND_PASSWORD_RESET } from '../jobs/send-password-reset.ts';
import { unlinkGoogleAccount } from '../domain/user-transitions.ts';
import { reauthentication } from './reauthentication.ts';
import type { RouteDeps } from './deps.ts';

export const FORGOT_PASSWORD_SENT = 'If an account exists for this email, we have sent it a link to reset the password.';
export const RESET_TOKEN_INVALID = 'This password reset token is invalid or has already been used.';
export const RESET_TOKEN_EXPIRED = 'This password reset token has expired. Please ask for a new one.';

const routes = Routes.identity;

export async function passwordRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const { ctx } = deps;
  const { requireProof } = reauthentication(deps);
  /**
   * Forgot password { email }: always 200 with the same body (400 only for an invalid email), and
   * never the token. Known and unknown emails take the same path here: one enqueue of the same job. The lookup,
   * the token rows and the email happen in that job (jobs/send-password-reset.ts), so neither the body nor the
   * time to answer tells whether the email has an account.
   */
  serve(app, routes.forgotPassword, async (request) => {
    const email = normaliseEmail(request.body.email);
    await ctx.jobs.enqueue(SEND_PASSWORD_RESET, { email, unlinkGoogle: request.body.unlinkGoogle === true });
    return { message: FORGOT_PASSWORD_SENT };
  });

  /**
   * Reset with the emailed token { token, password }: 200, and every session of the user ends; 400 otherwise. A token
   * asked for with `unlinkGoogle` (the Google link's "I didn't do this") also removes the linked Google account.
   */
  serve(app, routes.resetPassword, async (request, reply) => {
    const { token, password } = request.body;
    const reset = await request.em.findOne(PasswordReset, { tokenHash: tokenHash(token) });
    if (!reset) throw new AppError(400, 'invalid_token', RESET_TOKEN_INVALID);
    if (reset.expiresAt.getTime() <= Date.now()) throw new AppError(400, 'expired_token', RESET_TOKEN_EXPIRED);
    const passwordHash = await hashPassword(password);
    await ctx.change(async (tx) => {
      if (await tx.nativeDelete(PasswordReset, { id: reset.id }) === 0) throw new AppError(400, 'invalid_token', RESET_TOKEN_INVALID);
      await tx.nativeDelete(PasswordReset, { userId: reset.userId });
      const user = await tx.findOne(User, { id: reset.userId });
      if (!user) throw new AppError(400, 'invalid_token', RESET_TOKEN_INVALID);
      user.passwordHash = passwordHash;
      if (reset.unlinkGoogle) await unlinkGoogleAccount(tx, user);
      await tx.flush();
      return changed(undefined, sessionsEnded(user.id));
    });
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'revoke-all', userId: reset.userId }));
    return { message: 'Your password has been reset. You can now log in.' };
  });

  /**
   * Change password { currentPassword | totpCode, newPassword } (signed in): 200, and the user's other sessions end;
   * 400 validation; 401 not signed in, or a wrong proof; 403 no proof (a Google-only account without a recent Google
   * sign-in of this session); 429 past the limits.
   */
  serve(app, routes.changePassword, async (request, reply) => {
    const caller = requireUser(request);
    const input = request.body;
    const user = await request.em.findOne(User, { id: caller.userId, ...NOT_DELETED }, { populate: ['passwordHash'] });
    if (!user) throw unauthorized();
    await requireProof(request, user, input);
    const passwordHash = await hashPassword(input.newPassword);
    await ctx.change(async (tx) => {
      await tx.nativeUpdate(User, { id: user.id }, { passwordHash, updatedAt: new Date() });
      await tx.nativeDelete(PasswordReset, { userId: user.id }); // a reset link sent earlier must not undo this
      return changed(undefined, sessionsEnded(user.id, caller.sessionId));
    });
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction(caller.sessionId
      ? { action: 'revoke-others', userId: user.id, keepSessionId: caller.sessionId }
      : { action: 'revoke-all', userId: user.id }));
    return { message: 'Your password has been changed. Your other sessions have been signed out.' };
  });
}
