/** /api/blocked-users: block a user, unblock them, list whom the caller blocked (domain/blocks.ts). */
import type { FastifyInstance } from 'fastify';
import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { BlockRefusal, Routes } from '@puente/contracts';
import { conflict, fieldInvalid, notFound, requireUser, serve } from '@puente/platform';
import { block, blockedBy, liftBlocks } from '../domain/blocks.ts';
import { Trader } from '../domain/traders.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.exchange;

export function blockRoutes({ ctx, now }: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    serve(app, routes.blockedUsers, async (request) => blockedBy(request.em, requireUser(request).userId));

    /** 201 the block; 400 oneself; 404 a user this service never heard of or who deleted their account; 409 twice. */
    serve(app, routes.blockUser, async (request) => {
      const { userId } = requireUser(request);
      const target = request.body.userId;
      if (target === userId) throw fieldInvalid('userId', 'You cannot block yourself');
      const user = await request.em.findOne(Trader, { userId: target }, { fields: ['deletedAt'] });
      if (!user || user.deletedAt) throw notFound('User not found');
      try {
        await ctx.change((tx) => block(tx, userId, target, now()));
      } catch (err) {
        if (err instanceof UniqueConstraintViolationException) throw conflict('You have already blocked this user', BlockRefusal.alreadyBlocked);
        throw err;
      }
      const [blocked] = await blockedBy(request.em, userId, target);
      return blocked!;
    });

    /** 204; 404 when the caller has not blocked them. */
    serve(app, routes.unblockUser, async (request) => {
      const { userId } = requireUser(request);
      const target = request.params.userId;
      if (await ctx.change((tx) => liftBlocks(tx, userId, target)) === 0) throw notFound('You have not blocked this user');
    });
  };
}
