/**
 * Sign-in with Google (OpenID Connect, authorization code with state, nonce and PKCE; see domain/google.ts).
 * GET /auth/google[?referralCode=...&language=...] sends the browser to Google; GET /auth/google/callback signs the user in and
 * redirects to /dashboard, or to /login-failed?reason=<GoogleLoginFailure> (the login page shows the reason).
 * An existing user is found by linked Google account; a new user needs the referral code the register page passed
 * in. A Google account whose verified email is an existing account's, not linked yet, links nothing here: the pending
 * link goes in a sealed cookie and the browser to /link-google, where the account's password is asked once
 * (routes/google-link.ts, domain/google-link.ts). Every callback publishes identity.login.attempted (method google),
 * except one that sends the user on to a step that records it: the login page's code step (two-factor sign-in on) or
 * /link-google.
 *
 * With ?reauthenticate=<action>, a signed-in user signs in with Google again to confirm an action
 * (domain/reauthentication.ts): the flow names the session that asked, and the callback, which must come back with
 * that session and the Google account linked to its user, records the sign-in for that session and returns the
 * browser to /profile?reauthenticated=<action> (&failed=<reason> when it did not confirm). No session is granted.
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { LINK_GOOGLE_PAGE, Routes, type GoogleLoginFailure, type ReauthenticatedAction } from '@puente/contracts';
import { SESSION_ACTION_HEADER, changed, serve } from '@puente/platform';
import { NOT_DELETED, User, normaliseEmail } from '../domain/user.ts';
import { PendingSignup } from '../domain/pending-signup.ts';
import { normaliseReferralCode } from '../domain/referral-codes.ts';
import { findReferrer, registerUser } from '../domain/registration.ts';
import { GOOGLE_LINK_COOKIE, GOOGLE_LINK_TTL_SECONDS, googleLinkCookieOptions, sealPendingLink } from '../domain/google-link.ts';
import {
  GoogleFlowError, OAUTH_COOKIE, OAUTH_COOKIE_PATH, OAUTH_COOKIE_TTL_SECONDS, newFlow, openFlow, sealFlow, type GoogleIdentity,
  type Reauthenticating,
} from '../domain/google.ts';
import { recordGoogleSignIn, sessionKey } from '../domain/reauthentication.ts';
import { clientMeta, failureReason, loginAttempt, recordFailedAttempt, recordFailure, signupAttempt } from '../domain/attempts.ts';
import { noteLoginDevice } from '../jobs/send-account-notice.ts';
import { twoFactorOn } from '../domain/two-factor.ts';
import { signChallenge } from '../domain/two-factor-keys.ts';
import type { RouteDeps } from './deps.ts';

const loginFailed = (reply: FastifyReply, reason: GoogleLoginFailure) => reply.redirect(`/login-failed?reason=${reason}`, 302);
/** Back to the profile after signing in again to confirm `action`, with the reason when it did not. */
const backToProfile = (reply: FastifyReply, action: ReauthenticatedAction, failed?: GoogleLoginFailure) =>
  reply.redirect(`/profile?reauthenticated=${action}${failed ? `&failed=${failed}` : ''}`, 302);
const routes = Routes.identity;

/** A name for a new user when Google gives no given/family name. */
function names(identity: GoogleIdentity, email: string): { firstName: string; lastName: string } {
  if (identity.givenName) return { firstName: identity.givenName.slice(0, 100), lastName: (identity.familyName ?? '').slice(0, 100) };
  const [first = email.split('@')[0] ?? 'Puente', ...rest] = (identity.name ?? '').split(/\s+/).filter(Boolean);
  return { firstName: first.slice(0, 100), lastName: rest.join(' ').slice(0, 100) };
}

export async function googleRoutes(app: FastifyInstance, { ctx, config, google }: RouteDeps): Promise<void> {
  await app.register(cookie);
  const cookieOptions = {
    path: OAUTH_COOKIE_PATH, httpOnly: true, sameSite: 'lax' as const, secure: config.publicUrl.startsWith('https:'),
  };

  /**
   * Browser navigation: 302 to Google (with the sealed flow cookie), or to /login-failed when not configured. A
   * query the contract refuses (a referral code with characters not allowed) is a 400, recorded by the onError hook.
   */
  serve(app, routes.googleLogin, async (request, reply) => {
    if (!google) {
      await recordFailedAttempt(ctx, loginAttempt({
        email: '', method: 'google', status: 'failed', failureReason: 'google_not_configured', ...clientMeta(request),
      }));
      return loginFailed(reply, 'google_not_configured');
    }
    const { referralCode, language, reauthenticate } = request.query;
    let reauthenticating: Reauthenticating | null = null;
    if (reauthenticate) {
      // Only a signed-in session confirms an action: a visitor is sent to sign in.
      const caller = request.caller;
      if (caller?.kind !== 'user' || !caller.sessionId) return reply.redirect('/login', 302);
      reauthenticating = { action: reauthenticate, userId: caller.userId, sessionKey: sessionKey(caller.sessionId) };
    }
    const flow = newFlow(referralCode ? normaliseReferralCode(referralCode) : null, language, reauthenticating);
    let url: string;
    try {
      url = await google.authorizationUrl(flow);
    } catch (err) {
      request.log.error({ err }, 'Google sign-in: the OpenID provider could not be reached');
      return loginFailed(reply, 'google_failed');
    }
    reply.setCookie(OAUTH_COOKIE, await sealFlow(config.oauthCookieKey, flow), { ...cookieOptions, maxAge: OAUTH_COOKIE_TTL_SECONDS });
    return reply.redirect(url, 302);
  }, {
    onError: recordFailure(ctx, (request, err) => loginAttempt({
      email: '', method: 'google', status: 'failed', failureReason: failureReason(err), ...clientMeta(request),
    })),
  });

  /**
   * Browser navigation back from Google: 302 to /dashboard with a session grant, or to /login-failed. Every failure
   * is answered with a redirect, not an error, so it is recorded here (by `fail`), once.
   */
  serve(app, routes.googleCallback, async (request, reply) => {
    const meta = clientMeta(request);
    let email = '';
    let reauthenticating: Reauthenticating | null = null;
    const fail = async (reason: GoogleLoginFailure, failure: string = reason) => {
      await recordFailedAttempt(ctx, loginAttempt({ email, method: 'google', status: 'failed', failureReason: failure, ...meta }));
      return reauthenticating ? backToProfile(reply, reauthenticating.action, reason) : loginFailed(reply, reason);
    };
    reply.clearCookie(OAUTH_COOKIE, cookieOptions);
    if (!google) return fail('google_not_configured');
    const flow = await openFlow(config.oauthCookieKey, request.cookies[OAUTH_COOKIE]);
    if (!flow) return fail('google_failed', 'missing_or_expired_state');
    reauthenticating = flow.reauthenticate;

    try {
      // openid-client checks the provider's answer (state, error, code) itself: hand it the query as it came.
      const identity = await google.identify(new URL(request.url, 'http://identity').search, flow);
      email = normaliseEmail(identity.email ?? '');
      if (reauthenticating) {
        const confirming = reauthenticating;
        // The same session and user that asked, and the Google account linked to them: then this session has proof.
        const caller = request.caller;
        if (caller?.kind !== 'user' || caller.userId !== confirming.userId || !caller.sessionId || sessionKey(caller.sessionId) !== confirming.sessionKey) {
          return fail('google_failed', 'session_changed');
        }
        const user = await request.em.findOne(User, { id: caller.userId, ...NOT_DELETED });
        if (!user?.googleSubject || user.googleSubject !== identity.subject) return fail('google_other_account');
        const sessionId = caller.sessionId;
        await ctx.change(async (tx) => {
          await recordGoogleSignIn(tx, sessionId, user.id, new Date());
          return changed(undefined, loginAttempt({ email, method: 'google', status: 'success', failureReason: null, userId: user.id, ...meta }));
        });
        return backToProfile(reply, confirming.action);
      }
      const existing = await request.em.findOne(User, { googleSubject: identity.subject })
        ?? await request.em.findOne(User, { email });
      let user: User;
      if (existing) {
        if (existing.googleSubject && existing.googleSubject !== identity.subject) return fail('google_failed', 'linked_to_another_google_account');
        if (!existing.googleSubject) {
          // The email is the account's, the Google account is not yet: its password, once, decides.
          const owner = await request.em.findOne(User, { id: existing.id, ...NOT_DELETED }, { populate: ['passwordHash'] });
          if (!owner?.passwordHash) return fail('google_failed', 'link_without_password');
          const pending = await sealPendingLink(config.oauthCookieKey, { userId: owner.id, subject: identity.subject, email });
          reply.setCookie(GOOGLE_LINK_COOKIE, pending, { ...googleLinkCookieOptions(cookieOptions.secure), maxAge: GOOGLE_LINK_TTL_SECONDS });
          return reply.redirect(LINK_GOOGLE_PAGE, 302);
        }
        // Google vouches for the email, not for the second factor: the login page asks for the code (its second step).
        if (await twoFactorOn(request.em, existing.id)) {
          return reply.redirect(`/login?challenge=${encodeURIComponent(signChallenge(config.twoFactor.challengeKey, existing.id, 'google'))}`, 302);
        }
        user = await ctx.change(async (tx) => {
          const u = await tx.findOneOrFail(User, { id: existing.id });
          const attempt = loginAttempt({ email, method: 'google', status: 'success', failureReason: null, userId: u.id, ...meta });
          await noteLoginDevice(tx, ctx.jobs, u.id, meta);
          return changed(u, attempt);
        });
      } else {
        if (!flow.referralCode) return fail('referral_required');
        const referralCode = flow.referralCode;
        const referrer = await findReferrer(request.em, referralCode);
        if (!referrer) {
          await recordFailedAttempt(ctx, signupAttempt({
            email, step: 'request', status: 'failed', failureReason: 'invalid_referral_code', referralCode, ...meta,
          }));
          return fail('invalid_referral_code');
        }
        user = await ctx.change(async (tx) => {
          await tx.nativeDelete(PendingSignup, { email }); // a Google sign-up supersedes one waiting for its token
          const { value: u, events } = await registerUser(tx, {
            email, passwordHash: null, ...names(identity, email), profileImageUrl: identity.picture && identity.picture.length <= 255 ? identity.picture : null,
            referrerId: referrer.id, googleSubject: identity.subject, language: flow.language,
          });
          const attempts = [
            signupAttempt({ email, step: 'verify', status: 'completed', failureReason: null, referralCode, userId: u.id, ...meta }),
            loginAttempt({ email, method: 'google', status: 'success', failureReason: null, userId: u.id, ...meta }),
          ];
          await noteLoginDevice(tx, ctx.jobs, u.id, meta); // the first device of a new user: recorded, not alerted
          return changed(u, ...events, ...attempts);
        });
      }
      reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'grant', userId: user.id, role: user.role }));
      return reply.redirect('/dashboard', 302);
    } catch (err) {
      if (err instanceof GoogleFlowError) {
        request.log.warn({ detail: err.message }, 'Google sign-in refused');
        return fail(err.reason, err.failure);
      }
      request.log.error({ err }, 'Google sign-in failed');
      return fail('google_failed', 'internal_error');
    }
  });
}
