/**
 * The admin monitoring view's data (spec section 3), served against Routes.audit: the attempt lists (filtered, newest
 * first, paginated with X-Total-Count) and the failure stats (failed attempts grouped by step or method and reason,
 * most frequent first), and the attempts per day of the charts. The declarations say admins only (401 for visitors, 403 for other users) and validate the
 * queries; the answers go out through the contract's schemas.
 */
import type { FastifyInstance } from 'fastify';
import { raw } from '@mikro-orm/postgresql';
import { serve } from '@puente/platform';
import { Routes, type LoginFailureStat, type SignupFailureStat } from '@puente/contracts';
import { LoginAttempt, SignupAttempt, attemptWhere, loginAttemptView, signupAttemptView } from '../domain/attempts.ts';
import { attemptsPerDay } from '../domain/attempts-per-day.ts';

const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;
const routes = Routes.audit;

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  serve(app, routes.signupAttempts, async (request, reply) => {
    const { query } = request;
    const [rows, total] = await request.em.findAndCount(SignupAttempt, attemptWhere(query), {
      orderBy: NEWEST_FIRST, limit: query.limit, offset: query.offset,
    });
    reply.header('x-total-count', String(total));
    return rows.map(signupAttemptView);
  });

  serve(app, routes.loginAttempts, async (request, reply) => {
    const { query } = request;
    const [rows, total] = await request.em.findAndCount(LoginAttempt, attemptWhere(query), {
      orderBy: NEWEST_FIRST, limit: query.limit, offset: query.offset,
    });
    reply.header('x-total-count', String(total));
    return rows.map(loginAttemptView);
  });

  serve(app, routes.signupFailures, async (request) => {
    const rows = await request.em.createQueryBuilder(SignupAttempt)
      .select(['step', 'failureReason', raw('count(*) as count')])
      .where({ status: 'failed', ...attemptWhere(request.query) })
      .groupBy(['step', 'failureReason'])
      .orderBy([{ [raw('count(*)')]: 'desc' }, { step: 'asc', failureReason: 'asc' }])
      .execute<{ step: SignupFailureStat['step']; failureReason: string | null; count: string | number }[]>('all');
    return rows.map((r) => ({ step: r.step, failureReason: r.failureReason, count: Number(r.count) }));
  });

  serve(app, routes.loginFailures, async (request) => {
    const rows = await request.em.createQueryBuilder(LoginAttempt)
      .select(['method', 'failureReason', raw('count(*) as count')])
      .where({ status: 'failed', ...attemptWhere(request.query) })
      .groupBy(['method', 'failureReason'])
      .orderBy([{ [raw('count(*)')]: 'desc' }, { method: 'asc', failureReason: 'asc' }])
      .execute<{ method: LoginFailureStat['method']; failureReason: string | null; count: string | number }[]>('all');
    return rows.map((r) => ({ method: r.method, failureReason: r.failureReason, count: Number(r.count) }));
  });

  serve(app, routes.attemptsPerDay, async (request) => attemptsPerDay(request.em, request.query));
}
