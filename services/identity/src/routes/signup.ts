/**
 * Sign-up in two steps: POST /signup/request keeps a pending sign-up and sends its token (24 h, single use), in the
 * language the web app was showing; POST /signup/verify turns it into a user who keeps that language. Every attempt, success or failure, publishes identity.signup.attempted.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Routes } from '@puente/contracts';
import { AppError, changed, conflict, serve } from '@puente/platform';
import { User, normaliseEmail } from '../domain/user.ts';
import { PendingSignup } from '../domain/pending-signup.ts';
import { hashPassword } from '../domain/passwords.ts';
import { normaliseReferralCode } from '../domain/referral-codes.ts';
import { findReferrer, registerUser } from '../domain/registration.ts';
import { SIGNUP_TOKEN_TTL_MS, newToken, tokenHash } from '../domain/tokens.ts';
import { clientMeta, failureReason, rawEmail, rawField, recordFailure, signupAttempt } from '../domain/attempts.ts';
import { tokenLink } from '../domain/mailer.ts';
import { INVALID_REFERRAL_CODE } from './referrals.ts';
import type { RouteDeps } from './deps.ts';

export const EMAIL_TAKEN = 'An account with this email already exists. Please log in instead.';
export const SIGNUP_TOKEN_INVALID = 'This verification token is invalid or has already been used.';
export const SIGNUP_TOKEN_EXPIRED = 'This verification token has expired. Please sign up again.';

const invalidReferral = () => new AppError(400, 'invalid_referral_code', INVALID_REFERRAL_CODE, {
  errors: [{ field: 'referralCode', message: INVALID_REFERRAL_CODE }],
});
const emailTaken = () => conflict(EMAIL_TAKEN, 'email_taken');
const routes = Routes.identity;

/** Whose sign-up a verification is, once its token is found: the failure hook records the attempt under it. */
const verifying = new WeakMap<FastifyRequest, { email: string; referralCode: string }>();

export async function signupRoutes(app: FastifyInstance, { ctx, config, deliverToken }: RouteDeps): Promise<void> {
  /**
   * 201 { message, verificationToken? }; 400 validation or invalid referral code; 409 email of an existing account.
   * A failure, whatever it is, is recorded by the onError hook (validation runs before the handler).
   */
  serve(app, routes.signupRequest, async (request) => {
    const input = request.body;
    const email = normaliseEmail(input.email);
    const referralCode = normaliseReferralCode(input.referralCode);
    const referrer = await findReferrer(request.em, referralCode);
    if (!referrer) throw invalidReferral();
    if (await request.em.count(User, { email }) > 0) throw emailTaken();
    const language = input.language ?? 'en';
    const token = newToken();
    const passwordHash = await hashPassword(input.password);
    await ctx.change(async (tx) => {
      // Signing up again before verifying replaces the pending sign-up (and voids its token).
      await tx.nativeDelete(PendingSignup, { email });
      tx.create(PendingSignup, {
        email, passwordHash, firstName: input.firstName, lastName: input.lastName, referrerId: referrer.id,
        referralCode, language, tokenHash: tokenHash(token), expiresAt: new Date(Date.now() + SIGNUP_TOKEN_TTL_MS),
      });
      return changed(undefined, signupAttempt({ email, step: 'request', status: 'pending', failureReason: null, referralCode, ...clientMeta(request) }));
    });
    try {
      await deliverToken({ kind: 'verification', to: email, language, token, link: tokenLink(config.publicUrl, 'verify-email', token) });
    } catch (err) {
      request.log.error({ err }, 'could not send the verification email');
      throw new AppError(503, 'mail_failed', 'We could not send the verification email. Please try again.');
    }
    return {
      message: 'Check your email for a verification link.',
      ...(config.exposeVerificationToken ? { verificationToken: token } : {}),
    };
  }, {
    onError: recordFailure(ctx, (request, err) => {
      // As sent when validation refused the body; as the handler read it (upper case) otherwise.
      const code = rawField(request.body, 'referralCode');
      return signupAttempt({
        email: rawEmail(request.body), step: 'request', status: 'failed', failureReason: failureReason(err),
        referralCode: code !== null && !err.validation ? normaliseReferralCode(code) : code, ...clientMeta(request),
      });
    }),
  });

  /** 200 { message }; 400 validation, invalid/used or expired token; 409 the email got an account meanwhile. */
  serve(app, routes.signupVerify, async (request) => {
    const pending = await request.em.findOne(PendingSignup, { tokenHash: tokenHash(request.body.token) }, { populate: ['passwordHash'] });
    if (!pending) throw new AppError(400, 'invalid_token', SIGNUP_TOKEN_INVALID);
    const { email, referralCode } = pending;
    verifying.set(request, { email, referralCode });
    if (pending.expiresAt.getTime() <= Date.now()) throw new AppError(400, 'expired_token', SIGNUP_TOKEN_EXPIRED);
    await ctx.change(async (tx) => {
      // Claiming the row makes the token single-use even when two verifications race.
      if (await tx.nativeDelete(PendingSignup, { id: pending.id }) === 0) throw new AppError(400, 'invalid_token', SIGNUP_TOKEN_INVALID);
      if (await tx.count(User, { email }) > 0) throw emailTaken();
      const { value: user, events } = await registerUser(tx, {
        email, passwordHash: pending.passwordHash, firstName: pending.firstName, lastName: pending.lastName,
        profileImageUrl: null, referrerId: pending.referrerId, language: pending.language,
      });
      return changed(user, ...events,
        signupAttempt({ email, step: 'verify', status: 'completed', failureReason: null, referralCode, userId: user.id, ...clientMeta(request) }));
    });
    return { message: 'Your account is verified. You can now log in.' };
  }, {
    // Before the token is found, the attempt has no email ('') nor referral code.
    onError: recordFailure(ctx, (request, err) => signupAttempt({
      email: '', referralCode: null, ...verifying.get(request), step: 'verify', status: 'failed', failureReason: failureReason(err), ...clientMeta(request),
    })),
  });
}
