/**
 * Your data (UK GDPR): the signed-in user downloads everything Puente holds about them, and deletes their account.
 *
 * The download is one JSON document: identity's section from its own tables, every other service's from its internal
 * personal-data route, asked for the caller's id alone. It is all or nothing: a section missing would pass for data
 * not held, so a service that does not answer makes it a 503.
 *
 * The deletion asks for the proof of the user (routes/reauthentication.ts), is refused to admins, and is refused while
 * the exchange service counts a match of the user pending or confirmed (their partner is owed a transfer, or bank details
 * are shared). Then, in one transaction, identity anonymises the user and publishes identity.user.deleted; the gateway
 * ends every session of the user.
 */
import type { FastifyInstance } from 'fastify';
import { LockMode } from '@mikro-orm/postgresql';
import { AccountDeletionMessages as Says, Routes, type ApiRoute, type ServiceName } from '@puente/contracts';
import {
  AppError, SESSION_ACTION_HEADER, callRoute, changed, conflict, forbidden, requireUser, serve, unauthorized, type ServiceContext,
} from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { eraseUser, personalDataOf } from '../domain/personal-data.ts';
import { sessionsEnded } from '../domain/sessions-ended.ts';
import { reauthentication } from './reauthentication.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;

/** Another service's answer, or a 503 with `message` (the cause is logged, never the data). */
async function ask<T>(ctx: ServiceContext, service: ServiceName, message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    ctx.logger.warn({ service, err: (err as Error).message }, 'a service did not answer for a user\'s data');
    throw new AppError(503, 'service_unavailable', message);
  }
}

export async function personalDataRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const { ctx } = deps;
  const { requireProof } = reauthentication(deps);
  serve(app, routes.downloadData, async (request, reply) => {
    const { userId } = requireUser(request);
    const user = await request.em.findOne(User, { id: userId, ...NOT_DELETED });
    if (!user) throw unauthorized();
    const section = <R extends ApiRoute<ServiceName>>(route: R) =>
      ask(ctx, route.service, Says.downloadUnavailable, () => callRoute(ctx, route.service, route, { userId }));
    const [accounts, exchange, rating, notification, subscription, audit] = await Promise.all([
      section(Routes.accounts.personalData), section(Routes.exchange.personalData), section(Routes.rating.personalData),
      section(Routes.notification.personalData), section(Routes.subscription.personalData), section(Routes.audit.personalData),
    ]);
    const exportedAt = new Date().toISOString();
    reply.header('content-disposition', `attachment; filename="puente-data-${exportedAt.slice(0, 10)}.json"`);
    return { userId, exportedAt, identity: await personalDataOf(request.em, user), accounts, exchange, rating, notification, subscription, audit };
  });

  serve(app, routes.deleteAccount, async (request, reply) => {
    const { userId } = requireUser(request);
    const user = await request.em.findOne(User, { id: userId, ...NOT_DELETED }, { populate: ['passwordHash'] });
    if (!user) throw unauthorized();
    // The first admin is seeded only while there is no admin: an admin account ending here could leave none.
    if (user.role === 'admin') throw forbidden(Says.adminAccount);
    await requireProof(request, user, request.body);
    const { matchesInProgress } = await ask(ctx, 'exchange', Says.unavailable,
      () => callRoute(ctx, 'exchange', Routes.exchange.tradesInProgress, { userId }));
    if (matchesInProgress > 0) throw conflict(Says.tradeInProgress, 'trade_in_progress');
    await ctx.change(async (tx) => {
      // Re-read under a lock: two deletions at once erase and announce once.
      const locked = await tx.findOne(User, { id: userId, ...NOT_DELETED }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!locked) throw unauthorized();
      return changed(undefined, ...await eraseUser(tx, locked), sessionsEnded(userId));
    });
    reply.header(SESSION_ACTION_HEADER, await ctx.auth.signSessionAction({ action: 'revoke-all', userId }));
    return { message: Says.deleted };
  });
}
