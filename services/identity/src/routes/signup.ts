/**
 * Sign-up in two steps: POST /signup/request keeps a pending sign-up and sends its token (24 h, single use);
 * POST /signup/verify turns it into a user. Every attempt, success or failure, publishes identity.signup.attempted.
 */
import type { FastifyInstance } from 'fastify';
import { SignupRequest, SignupVerifyRequest, type SignupRequestResponse, type SignupVerifyResponse } from '@puente/contracts';
import { AppError, addToOutbox, conflict, parse } from '@puente/platform';
import { User, normaliseEmail } from '../domain/user.ts';
import { PendingSignup } from '../domain/pending-signup.ts';
import { hashPassword } from '../domain/passwords.ts';
import { normaliseReferralCode } from '../domain/referral-codes.ts';
import { findReferrer, registerUser } from '../domain/registration.ts';
import { SIGNUP_TOKEN_TTL_MS, newToken, tokenHash } from '../domain/tokens.ts';
import { clientMeta, failureReason, rawEmail, rawField, recordFailedAttempt, signupAttempt } from '../domain/attempts.ts';
import { INVALID_REFERRAL_CODE } from './referrals.ts';
import type { RouteDeps } from './deps.ts';

export const EMAIL_TAKEN = 'An account with this email already exists. Please log in instead.';
export const SIGNUP_TOKEN_INVALID = 'This verification token is invalid or has already been used.';
export const SIGNUP_TOKEN_EXPIRED = 'This verification token has expired. Please sign up again.';

const invalidReferral = () => new AppError(400, 'invalid_referral_code', INVALID_REFERRAL_CODE, {
  errors: [{ field: 'referralCode', message: INVALID_REFERRAL_CODE }],
});
const emailTaken = () => conflict(EMAIL_TAKEN, 'email_taken');

export async function signupRoutes(app: FastifyInstance, { ctx, config, deliverToken }: RouteDeps): Promise<void> {
  /** 201 { message, verificationToken? }; 400 validation or invalid referral code; 409 email of an existing account. */
  app.post('/signup/request', async (request, reply): Promise<SignupRequestResponse> => {
    const meta = clientMeta(request);
    let email = rawEmail(request.body);
    let referralCode = rawField(request.body, 'referralCode');
    try {
      const input = parse(SignupRequest, request.body);
      email = normaliseEmail(input.email);
      referralCode = normaliseReferralCode(input.referralCode);
      const referrer = await findReferrer(request.em, referralCode);
      if (!referrer) throw invalidReferral();
      if (await request.em.count(User, { email }) > 0) throw emailTaken();
      const token = newToken();
      const passwordHash = await hashPassword(input.password);
      await ctx.transaction(async (tx) => {
        // Signing up again before verifying replaces the pending sign-up (and voids its token).
        await tx.nativeDelete(PendingSignup, { email });
        tx.create(PendingSignup, {
          email, passwordHash, firstName: input.firstName, lastName: input.lastName, referrerId: referrer.id,
          referralCode: referralCode!, tokenHash: tokenHash(token), expiresAt: new Date(Date.now() + SIGNUP_TOKEN_TTL_MS),
        });
        addToOutbox(tx, signupAttempt({ email, step: 'request', status: 'pending', failureReason: null, referralCode, ...meta }));
      });
      try {
        await deliverToken({ kind: 'verification', to: email, token, link: `${config.publicUrl}/verify-email?token=${token}` });
      } catch (err) {
        request.log.error({ err }, 'could not send the verification email');
        throw new AppError(503, 'mail_failed', 'We could not send the verification email. Please try again.');
      }
      reply.status(201);
      return {
        message: 'Check your email for a verification link.',
        ...(config.exposeVerificationToken ? { verificationToken: token } : {}),
      };
    } catch (err) {
      await recordFailedAttempt(ctx, signupAttempt({
        email, step: 'request', status: 'failed', failureReason: failureReason(err), referralCode, ...meta,
      }));
      throw err;
    }
  });

  /** 200 { message }; 400 validation, invalid/used or expired token; 409 the email got an account meanwhile. */
  app.post('/signup/verify', async (request): Promise<SignupVerifyResponse> => {
    const meta = clientMeta(request);
    let email = '';
    let referralCode: string | null = null;
    try {
      const { token } = parse(SignupVerifyRequest, request.body);
      const pending = await request.em.findOne(PendingSignup, { tokenHash: tokenHash(token) }, { populate: ['passwordHash'] });
      if (!pending) throw new AppError(400, 'invalid_token', SIGNUP_TOKEN_INVALID);
      email = pending.email;
      referralCode = pending.referralCode;
      if (pending.expiresAt.getTime() <= Date.now()) throw new AppError(400, 'expired_token', SIGNUP_TOKEN_EXPIRED);
      await ctx.transaction(async (tx) => {
        // Claiming the row makes the token single-use even when two verifications race.
        if (await tx.nativeDelete(PendingSignup, { id: pending.id }) === 0) throw new AppError(400, 'invalid_token', SIGNUP_TOKEN_INVALID);
        if (await tx.count(User, { email }) > 0) throw emailTaken();
        await registerUser(tx, {
          email, passwordHash: pending.passwordHash, firstName: pending.firstName, lastName: pending.lastName,
          profileImageUrl: null, referrerId: pending.referrerId,
        });
        addToOutbox(tx, signupAttempt({ email, step: 'verify', status: 'completed', failureReason: null, referralCode, ...meta }));
      });
      return { message: 'Your account is verified. You can now log in.' };
    } catch (err) {
      await recordFailedAttempt(ctx, signupAttempt({
        email, step: 'verify', status: 'failed', failureReason: failureReason(err), referralCode, ...meta,
      }));
      throw err;
    }
  });
}
