import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound, parse } from '@puente/platform';
import { User } from '../domain/user.ts';
import { normaliseReferralCode } from '../domain/referral-codes.ts';

const CodeParam = z.object({ code: z.string().trim().min(1, 'Please enter a referral code').max(64, 'Invalid referral code') });

export async function referralRoutes(app: FastifyInstance): Promise<void> {
  /** GET /api/auth/verify-referral/{code}: 200 { valid: true } for a code that belongs to a user, else 404. */
  app.get('/auth/verify-referral/:code', async (request) => {
    const { code } = parse(CodeParam, request.params);
    const owner = await request.em.findOne(User, { referralCode: normaliseReferralCode(code) }, { fields: ['id'] });
    if (!owner) throw notFound('Invalid referral code. Please ask a friend for a valid code.');
    return { valid: true };
  });
}
