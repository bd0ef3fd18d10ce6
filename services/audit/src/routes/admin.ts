/**
 * The admin monitoring view's data (spec section 3): GET /admin/signup-attempts, /admin/login-attempts (filtered,
 * newest first, paginated with X-Total-Count) and /admin/signup-failures, /admin/login-failures (failed attempts
 * grouped by step or method and reason, most frequent first). Admins only: 401 for visitors, 403 for other users.
 */
import type { FastifyInstance } from 'fastify';
import { raw } from '@mikro-orm/postgresql';
import { parse, requireAdmin } from '@puente/platform';
import {
  AttemptsQuery,
  FailureStatsQuery,
  type LoginAttempt as LoginAttemptItem,
  type LoginFailureStat,
  type SignupAttempt as SignupAttemptItem,
  type SignupFailureStat,
} from '@puente/contracts';
import { LoginAttempt, SignupAttempt, attemptWhere } from '../domain/attempts.ts';

const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;

export async function adminRoutes(app: FastifyInstance): Promise<void> {
  app.get('/admin/signup-attempts', async (request, reply): Promise<SignupAttemptItem[]> => {
    requireAdmin(request);
    const query = parse(AttemptsQuery, request.query);
    const [rows, total] = await request.em.findAndCount(SignupAttempt, attemptWhere(query), {
      orderBy: NEWEST_FIRST, limit: query.limit, offset: query.offset,
    });
    reply.header('x-total-count', String(total));
    return rows.map((a) => ({
      id: a.id, email: a.email, step: a.step, status: a.status, failureReason: a.failureReason ?? null,
      referralCode: a.referralCode ?? null, ipAddress: a.ipAddress ?? null, userAgent: a.userAgent ?? null,
      inputAltered: a.inputAltered, createdAt: a.createdAt.toISOString(),
    }));
  });

  app.get('/admin/login-attempts', async (request, reply): Promise<LoginAttemptItem[]> => {
    requireAdmin(request);
    const query = parse(AttemptsQuery, request.query);
    const [rows, total] = await request.em.findAndCount(LoginAttempt, attemptWhere(query), {
      orderBy: NEWEST_FIRST, limit: query.limit, offset: query.offset,
    });
    reply.header('x-total-count', String(total));
    return rows.map((a) => ({
      id: a.id, email: a.email, method: a.method, status: a.status, failureReason: a.failureReason ?? null,
      ipAddress: a.ipAddress ?? null, userAgent: a.userAgent ?? null, inputAltered: a.inputAltered,
      createdAt: a.createdAt.toISOString(),
    }));
  });

  app.get('/admin/signup-failures', async (request): Promise<SignupFailureStat[]> => {
    requireAdmin(request);
    const query = parse(FailureStatsQuery, request.query);
    const rows = await request.em.createQueryBuilder(SignupAttempt)
      .select(['step', 'failureReason', raw('count(*) as count')])
      .where({ status: 'failed', ...attemptWhere(query) })
      .groupBy(['step', 'failureReason'])
      .orderBy([{ [raw('count(*)')]: 'desc' }, { step: 'asc', failureReason: 'asc' }])
      .execute<{ step: SignupFailureStat['step']; failureReason: string | null; count: string | number }[]>('all');
    return rows.map((r) => ({ step: r.step, failureReason: r.failureReason, count: Number(r.count) }));
  });

  app.get('/admin/login-failures', async (request): Promise<LoginFailureStat[]> => {
    requireAdmin(request);
    const query = parse(FailureStatsQuery, request.query);
    const rows = await request.em.createQueryBuilder(LoginAttempt)
      .select(['method', 'failureReason', raw('count(*) as count')])
      .where({ status: 'failed', ...attemptWhere(query) })
      .groupBy(['method', 'failureReason'])
      .orderBy([{ [raw('count(*)')]: 'desc' }, { method: 'asc', failureReason: 'asc' }])
      .execute<{ method: LoginFailureStat['method']; failureReason: string | null; count: string | number }[]>('all');
    return rows.map((r) => ({ method: r.method, failureReason: r.failureReason, count: Number(r.count) }));
  });
}
