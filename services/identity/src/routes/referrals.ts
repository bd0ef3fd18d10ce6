import type { FastifyInstance } from 'fastify';
import { Routes } from '@puente/contracts';
import { notFound, requireUser, serve, unauthorized } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { referralsMadeBy } from '../domain/referral.ts';
import { findReferrer } from '../domain/registration.ts';

export const INVALID_REFERRAL_CODE = 'Invalid referral code. Please ask a friend for a valid code.';

const routes = Routes.identity;

export async function referralRoutes(app: FastifyInstance): Promise<void> {
  /** 200 { valid: true } for a code that belongs to a user, else 404 (anyone). */
  serve(app, routes.verifyReferral, async (request) => {
    if (!(await findReferrer(request.em, request.params.code))) throw notFound(INVALID_REFERRAL_CODE);
    return { valid: true as const };
  });

  /** The signed-in user's own referral code. */
  serve(app, routes.referralCode, async (request) => {
    const { userId } = requireUser(request);
    const user = await request.em.findOne(User, { id: userId, ...NOT_DELETED }, { fields: ['referralCode'] });
    if (!user) throw unauthorized();
    return { referralCode: user.referralCode };
  });

  /** The people the signed-in user brought in, newest first, with their names: a page, the total in X-Total-Count. */
  serve(app, routes.referralList, async (request, reply) => {
    const { userId } = requireUser(request);
    const { referrals, total } = await referralsMadeBy(request.em, userId, request.query);
    reply.header('x-total-count', String(total));
    return referrals;
  });
}
