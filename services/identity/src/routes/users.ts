/** Public profiles, the user directory, and users asking to be verified. */
import type { FastifyInstance } from 'fastify';
import {
  PaginationQuery, UserIdParams, VerificationTypeParams,
  type AdminUserView, type PublicUser, type UserDirectory, type VerificationRequestResponse,
} from '@puente/contracts';
import { notFound, parse, requireUser, unauthorized, type Caller } from '@puente/platform';
import { User } from '../domain/user.ts';
import { VerificationFlag, VerificationRequest } from '../domain/verification-request.ts';
import { adminUserView, publicUserView } from '../domain/views.ts';
import type { RouteDeps } from './deps.ts';

const isAdmin = (caller: Caller | null): boolean => caller?.kind === 'user' && caller.role === 'admin';

export async function userRoutes(app: FastifyInstance, _deps: RouteDeps): Promise<void> {
  /** GET /api/users/{id} (anyone): the public profile, or the admin view for an admin; 404 unknown; 400 bad id. */
  app.get('/users/:id', async (request): Promise<PublicUser | AdminUserView> => {
    const { id } = parse(UserIdParams, request.params);
    const user = await request.em.findOne(User, { id });
    if (!user) throw notFound('User not found');
    return isAdmin(request.caller) ? adminUserView(user) : publicUserView(user);
  });

  /**
   * GET /api/admin/users (the directory, open to visitors too): public views for everyone but admins, who also see
   * email, role and subscriptionTier. Paginated (limit ≤ 500, default 50; offset), total in X-Total-Count.
   */
  app.get('/admin/users', async (request, reply): Promise<UserDirectory> => {
    const { limit, offset } = parse(PaginationQuery, request.query ?? {});
    const [users, total] = await request.em.findAndCount(User, {}, { orderBy: { id: 'asc' }, limit, offset });
    reply.header('x-total-count', String(total));
    const view = isAdmin(request.caller) ? adminUserView : publicUserView;
    return users.map(view);
  });

  /**
   * POST /api/users/verification/{type} (signed in; type email, phone, id or bank; empty body): 201 a new pending
   * request for an admin to review; 200 when one is already pending or the user is already verified for it.
   */
  app.post('/users/verification/:type', async (request, reply): Promise<VerificationRequestResponse> => {
    const { userId } = requireUser(request);
    const { type } = parse(VerificationTypeParams, request.params);
    const user = await request.em.findOne(User, { id: userId });
    if (!user) throw unauthorized();
    if (user[VerificationFlag[type]]) return { message: 'You are already verified for this.', id: null, type, status: 'approved' };
    const pending = await request.em.findOne(VerificationRequest, { userId, type, status: 'pending' });
    if (pending) return { message: 'Your verification request is waiting for review.', id: pending.id, type, status: 'pending' };
    const created = request.em.create(VerificationRequest, { userId, type });
    await request.em.flush();
    reply.status(201);
    return { message: 'Verification request submitted. An admin will review it.', id: created.id, type, status: 'pending' };
  });
}
