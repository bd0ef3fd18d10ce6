/** Public profiles, the user directory, and users asking to be verified. */
import type { FastifyInstance } from 'fastify';
import { Routes, type VerificationRequestResponse } from '@puente/contracts';
import { actsAsAdmin, notFound, requireUser, serve, unauthorized } from '@puente/platform';
import { NOT_DELETED, User } from '../domain/user.ts';
import { OPEN_STATUSES, VerificationFlag, VerificationMessages, VerificationRequest, initialStatus } from '../domain/verification-request.ts';
import { adminUserView, publicUserView } from '../domain/views.ts';
import { directoryPage, disputeOutcomesOf } from '../domain/directory.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;

export async function userRoutes(app: FastifyInstance, _deps: RouteDeps): Promise<void> {
  /**
   * A user's profile (anyone): the public profile, or the admin view for an admin with admin access (in production,
   * signed in with two-factor sign-in); 404 unknown or deleted; 400 bad id.
   */
  serve(app, routes.user, async (request) => {
    const user = await request.em.findOne(User, { id: request.params.id, ...NOT_DELETED });
    if (!user) throw notFound('User not found');
    return actsAsAdmin(request) ? adminUserView(user) : publicUserView(user);
  });

  /**
   * The directory (open to visitors too): public views for everyone but admins, who also see email, role and
   * subscriptionTier, each with the user's dispute outcomes. Filtered by name and tier; paginated (limit ≤ 500,
   * default 50, as every paginated list; offset), the total of matching users in X-Total-Count. Deleted accounts are
   * not listed.
   */
  serve(app, routes.directory, async (request, reply) => {
    const [users, total] = await directoryPage(request.em, request.query);
    const outcomes = await disputeOutcomesOf(request.em, users.map((u) => u.id));
    reply.header('x-total-count', String(total));
    const view = actsAsAdmin(request) ? adminUserView : publicUserView;
    return users.map((u) => ({ ...view(u), disputeOutcomes: outcomes.get(u.id)! }));
  });

  /**
   * Ask to be verified (signed in; type email, phone, id or bank; empty body): 201 a new request, pending an admin's
   * review (an ID request awaiting its document first: POST /users/verification/id/document); 200 when one is already
   * open or the user is already verified for it.
   */
  serve(app, routes.requestVerification, async (request, reply): Promise<VerificationRequestResponse> => {
    const { userId } = requireUser(request);
    const { type } = request.params;
    const user = await request.em.findOne(User, { id: userId, ...NOT_DELETED });
    if (!user) throw unauthorized();
    if (user[VerificationFlag[type]]) return { message: 'You are already verified for this.', id: null, type, status: 'approved' };
    const open = await request.em.findOne(VerificationRequest, { userId, type, status: { $in: [...OPEN_STATUSES] } });
    if (open?.status === 'awaiting_document') return { message: VerificationMessages.awaitingDocument, id: open.id, type, status: open.status };
    if (open) return { message: 'Your verification request is waiting for review.', id: open.id, type, status: open.status };
    const created = request.em.create(VerificationRequest, { userId, type, status: initialStatus(type) });
    await request.em.flush();
    reply.status(201);
    return created.status === 'awaiting_document'
      ? { message: VerificationMessages.awaitingDocument, id: created.id, type, status: created.status }
      : { message: 'Verification request submitted. An admin will review it.', id: created.id, type, status: created.status };
  });
}
