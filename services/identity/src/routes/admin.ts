/**
 * Admins review verification requests: list them (pending by default: those ready for review, an ID request once its
 * document is in, shown beside it), approve one (the user's flag flips, the trust score follows,
 * identity.user.verified is published) or reject one. Deciding an ID request deletes its document's file
 * (domain/id-documents.ts says why).
 */
import type { FastifyInstance } from 'fastify';
import { Routes, type AdminVerificationRequestList } from '@puente/contracts';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { changed, notFound, requireAdmin, serve, type RouteRequest } from '@puente/platform';
import { User } from '../domain/user.ts';
import { VerificationRequest } from '../domain/verification-request.ts';
import { approveVerification, rejectVerification } from '../domain/verification-transitions.ts';
import { idDocumentsOf, purgeIdDocument } from '../domain/id-documents.ts';
import type { RouteDeps } from './deps.ts';

const routes = Routes.identity;

async function views(em: EntityManager, requests: VerificationRequest[]): Promise<AdminVerificationRequestList> {
  const users = await em.find(User, { id: { $in: [...new Set(requests.map((r) => r.userId))] } });
  const byId = new Map(users.map((u) => [u.id, u]));
  const documents = await idDocumentsOf(em, requests.filter((r) => r.type === 'id').map((r) => r.id));
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
    document: documents.get(r.id) ?? null,
  }));
}

export async function adminRoutes(app: FastifyInstance, { ctx }: RouteDeps): Promise<void> {
  /** Verification requests [?status=pending|approved|rejected] (admins): oldest first. */
  serve(app, routes.verificationRequests, async (request, reply) => {
    const { status, limit, offset } = request.query;
    const [requests, total] = await request.em.findAndCount(VerificationRequest, { status }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset });
    reply.header('x-total-count', String(total));
    return views(request.em, requests);
  });

  /** 200 the request; 404 unknown; 409 already decided (admins). */
  const decide = (decision: 'approved' | 'rejected') => async (request: RouteRequest<typeof routes.approveVerification | typeof routes.rejectVerification>) => {
    const admin = requireAdmin(request);
    const { id } = request.params;
    return ctx.change(async (tx) => {
      const vr = await tx.findOne(VerificationRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!vr) throw notFound('Verification request not found');
      const at = new Date();
      const events = decision === 'approved'
        ? approveVerification(vr, await tx.findOne(User, { id: vr.userId }), admin.userId, at)
        : rejectVerification(vr, admin.userId, at);
      await purgeIdDocument(tx, vr.id, at);
      await tx.flush();
      const [view] = await views(tx, [vr]);
      return changed(view!, ...events);
    });
  };

  serve(app, routes.approveVerification, decide('approved'));
  serve(app, routes.rejectVerification, decide('rejected'));
}
