import type { FastifyInstance } from 'fastify';
import { ReferralCodeParams, type ReferralCodeResponse, type ReferralList } from '@puente/contracts';
import { notFound, parse, requireUser, unauthorized } from '@puente/platform';
import { User } from '../domain/user.ts';
import { Referral } from '../domain/referral.ts';
import { findReferrer } from '../domain/registration.ts';

export const INVALID_REFERRAL_CODE = 'Invalid referral code. Please ask a friend for a valid code.';

export async function referralRoutes(app: FastifyInstance): Promise<void> {
  /** GET /api/auth/verify-referral/{code}: 200 { valid: true } for a code that belongs to a user, else 404 (anyone). */
  app.get('/auth/verify-referral/:code', async (request) => {
    const { code } = parse(ReferralCodeParams, request.params);
    if (!(await findReferrer(request.em, code))) throw notFound(INVALID_REFERRAL_CODE);
    return { valid: true };
  });

  /** GET /api/referral/code: the signed-in user's own referral code. */
  app.get('/referral/code', async (request): Promise<ReferralCodeResponse> => {
    const { userId } = requireUser(request);
    const user = await request.em.findOne(User, { id: userId }, { fields: ['referralCode'] });
    if (!user) throw unauthorized();
    return { referralCode: user.referralCode };
  });

  /** GET /api/referral/list: the people the signed-in user brought in, newest first, with their names. */
  app.get('/referral/list', async (request): Promise<ReferralList> => {
    const { userId } = requireUser(request);
    const referrals = await request.em.find(Referral, { referrerId: userId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
    const users = await request.em.find(User, { id: { $in: referrals.map((r) => r.referredId) } }, { fields: ['firstName', 'lastName'] });
    const byId = new Map(users.map((u) => [u.id, u]));
    return referrals.map((r) => ({
      id: r.id,
      referredId: r.referredId,
      createdAt: r.createdAt.toISOString(),
      firstName: byId.get(r.referredId)?.firstName ?? '',
      lastName: byId.get(r.referredId)?.lastName ?? '',
    }));
  });
}
