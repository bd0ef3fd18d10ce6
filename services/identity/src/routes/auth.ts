/**
 * Login with email and password, the current user (read and edit one's name) and the header's Log In link.
 * POST /api/auth/logout is the gateway's own (it ends the session it holds).
 */
import type { FastifyInstance } from 'fastify';
import { LoginRequest, UserProfileUpdate, type CurrentUser, type LoginResponse } from '@puente/contracts';
import { AppError, SESSION_ACTION_HEADER, addToOutbox, makeEvent, parse, requireUser, unauthorized } from '@puente/platform';
import { User, normaliseEmail } from '../domain/user.ts';
import { PendingSignup } from '../domain/pending-signup.ts';
import { verifyPassword } from '../domain/passwords.ts';
import { currentUserView } from '../domain/views.ts';
import { clientMeta, failureReason, loginAttempt, rawEmail, recordFailedAttempt } from '../domain/attempts.ts';
import type { RouteDeps } from './deps.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const UNVERIFIED = 'Please verify your email address before logging in. Check your inbox for the verification link.';

const invalidCredentials = () => new AppError(401, 'invalid_credentials', INVALID_CREDENTIALS);
const unverified = () => new AppError(403, 'unverified', UNVERIFIED);

export async function authRoutes(app: FastifyInstance, { ctx }: RouteDeps): Promise<void> {
  /**
   * 200 { message } and a session grant for the gateway; 400 validation; 401 wrong email or password (which one is
   * never said); 403 a sign-up not verified yet (said only to someone who knows its password).
   */
  app.post('/auth/login', async (request, reply): Promise<LoginResponse> => {
    const meta = clientMeta(request);
    let email = rawEmail(request.body);
    try {
      const input = parse(LoginRequest, request.body);
      email = normaliseEmail(input.email);
      const user = await request.em.findOne(User, { email }, { populate: ['passwordHash'] });
      if (!user) {
        const pending = await request.em.findOne(PendingSignup, { email }, { populate: ['passwordHash'] });
        // verifyPassword does the same work with no hash, so an unknown email takes as long as a wrong password.
        if (await verifyPassword(input.password, pending?.passwordHash)) throw unverified();
        throw invalidCredentials();
      }
      if (!(await verifyPassword(input.password, user.passwordHash))) throw invalidCredentials();
      if (!user.emailVerified) throw unverified();
      await ctx.transaction(async (tx) => {
        addToOutbox(tx, loginAttempt({ email, method: 'password', status: 'success', failureReason: null, ...meta }));
      });
      reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'grant', userId: user.id, role: user.role }));
      return { message: 'Login successful' };
    } catch (err) {
      await recordFailedAttempt(ctx, loginAttempt({ email, method: 'password', status: 'failed', failureReason: failureReason(err), ...meta }));
      throw err;
    }
  });

  /** GET /api/auth/user: the signed-in user (spec section 3 + role, trustScore, trustLevel); 401 when none. */
  app.get('/auth/user', async (request): Promise<CurrentUser> => {
    const { userId } = requireUser(request);
    const user = await request.em.findOne(User, { id: userId });
    if (!user) throw unauthorized();
    return currentUserView(user);
  });

  /** PATCH /api/auth/user { firstName?, lastName? }: edit one's own name; 200 the current user; 400 validation. */
  app.patch('/auth/user', async (request): Promise<CurrentUser> => {
    const { userId } = requireUser(request);
    const input = parse(UserProfileUpdate, request.body ?? {});
    return ctx.transaction(async (tx) => {
      const user = await tx.findOne(User, { id: userId });
      if (!user) throw unauthorized();
      if (input.firstName !== undefined) user.firstName = input.firstName;
      if (input.lastName !== undefined) user.lastName = input.lastName;
      await tx.flush();
      addToOutbox(tx, makeEvent('userProfileUpdated', user.id, {
        userId: user.id, firstName: user.firstName, lastName: user.lastName, profileImageUrl: user.profileImageUrl ?? null,
      }));
      return currentUserView(user);
    });
  });

  /** GET /api/login (the header's Log In, a browser navigation): 302 to the login page. */
  app.get('/login', async (_request, reply) => reply.redirect('/login', 302));
}
