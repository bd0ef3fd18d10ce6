/**
 * The signed-in user's sign-in methods: whether the account has a password, the linked Google account, two-factor
 * sign-in, and which proof the account gives for what cannot be undone (with, for a Google-only account, until when
 * this session's Google sign-in still counts); and removing the linked Google account, which only an account with a
 * password may do (without one it could no longer sign in).
 */
import type { FastifyInstance } from 'fastify';
import { Routes, SignInMethodMessages as Says } from '@puente/contracts';
import { conflict, notFound, requireUser, serve, unauthorized } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { twoFactorOn } from '../domain/two-factor.ts';
import { googleSignInValidUntil, reauthenticationMethod } from '../domain/reauthentication.ts';
import { unlinkGoogleAccount } from '../domain/user-transitions.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;

export async function signInMethodRoutes(app: FastifyInstance, { ctx }: RouteDeps): Promise<void> {
  serve(app, routes.signInMethods, async (request) => {
    const caller = requireUser(request);
    const user = await request.em.findOne(User, { id: caller.userId, ...NOT_DELETED }, { populate: ['passwordHash'] });
    if (!user) throw unauthorized();
    const twoFactor = await twoFactorOn(request.em, user.id);
    const until = await googleSignInValidUntil(request.em, user.id, caller.sessionId, new Date());
    return {
      password: Boolean(user.passwordHash),
      google: { linked: Boolean(user.googleSubject), linkedAt: user.googleLinkedAt?.toISOString() ?? null },
      twoFactor,
      reauthentication: reauthenticationMethod(Boolean(user.passwordHash), twoFactor),
      googleSignInValidUntil: until?.toISOString() ?? null,
    };
  });

  /** 204, the Google account no longer signs in; 404 none linked; 409 an account without a password. */
  serve(app, routes.unlinkGoogle, async (request, reply) => {
    const { userId } = requireUser(request);
    await ctx.transaction(async (tx) => {
      const user = await tx.findOne(User, { id: userId, ...NOT_DELETED }, { populate: ['passwordHash'] });
      if (!user) throw unauthorized();
      if (!user.googleSubject) throw notFound(Says.googleNotLinked);
      if (!user.passwordHash) throw conflict(Says.passwordNeededToUnlink, 'password_needed');
      await unlinkGoogleAccount(tx, user);
      await tx.flush();
    });
    return reply.status(204).send();
  });
}
