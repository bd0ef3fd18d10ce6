/**
 * Admins review verification requests: list them (pending by default), approve one (the user's flag flips, the
 * trust score follows, identity.user.verified is published) or reject one.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  VerificationRequestIdParams, VerificationRequestStatus, type AdminVerificationRequest, type AdminVerificationRequestList,
} from '@puente/contracts';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { addToOutbox, conflict, makeEvent, notFound, parse, requireAdmin } from '@puente/platform';
import { User } from '../domain/user.ts';
import { VerificationFlag, VerificationRequest } from '../domain/verification-request.ts';
import type { RouteDeps } from './deps.ts';

const ListQuery = z.object({
  status: VerificationRequestStatus.default('pending'),
});

async function views(em: EntityManager, requests: VerificationRequest[]): Promise<AdminVerificationRequestList> {
  const users = await em.find(User, { id: { $in: [...new Set(requests.map((r) => r.userId))] } });
  const byId = new Map(users.map((u) => [u.id, u]));
  return requests.map((r) => ({
    id: r.id,
    userId: r.userId,
    type: r.type,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
    firstName: byId.get(r.userId)?.firstName ?? '',
    lastName: byId.get(r.userId)?.lastName ?? '',
    email: byId.get(r.userId)?.email ?? '',
  }));
}

export async function adminRoutes(app: FastifyInstance, { ctx }: RouteDeps): Promise<void> {
  /** GET /api/admin/verification-requests[?status=pending|approved|rejected] (admins): oldest first. */
  app.get('/admin/verification-requests', async (request): Promise<AdminVerificationRequestList> => {
    requireAdmin(request);
    const { status } = parse(ListQuery, request.query ?? {});
    const requests = await request.em.find(VerificationRequest, { status }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 500 });
    return views(request.em, requests);
  });

  const decide = (decision: 'approved' | 'rejected') => async (request: Parameters<typeof requireAdmin>[0]): Promise<AdminVerificationRequest> => {
    const admin = requireAdmin(request);
    const { id } = parse(VerificationRequestIdParams, request.params);
    return ctx.transaction(async (tx) => {
      const vr = await tx.findOne(VerificationRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!vr) throw notFound('Verification request not found');
      if (vr.status !== 'pending') throw conflict(`This verification request has already been ${vr.status}.`);
      vr.status = decision;
      vr.decidedAt = new Date();
      vr.decidedById = admin.userId;
      if (decision === 'approved') {
        const user = await tx.findOne(User, { id: vr.userId });
        if (user) {
          user[VerificationFlag[vr.type]] = true;
          addToOutbox(tx, makeEvent('userVerified', user.id, { userId: user.id, kind: vr.type }));
        }
      }
      await tx.flush();
      const [view] = await views(tx, [vr]);
      return view!;
    });
  };

  /** POST /api/admin/verification-requests/{id}/approve (admins): 200 the request; 404 unknown; 409 already decided. */
  app.post('/admin/verification-requests/:id/approve', decide('approved'));
  /** POST /api/admin/verification-requests/{id}/reject (admins): 200 the request; 404 unknown; 409 already decided. */
  app.post('/admin/verification-requests/:id/reject', decide('rejected'));
}
