import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UserDirectory, type ResolvedDisputeSnapshot } from '@puente/contracts';
import { ProjectionBackfill, makeEvent } from '@puente/platform';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { User } from './domain/user.ts';
import { startIdentity } from './testing/helpers.ts';

/** Disputes resolved before identity kept them: filled from exchange's snapshot at the first start, once. */
describeWithInfra(['postgres'], 'the directory\'s dispute outcomes with PROJECTION_BACKFILL on', () => {
  const db = useFreshDatabase('identity_directory_backfill');
  let exchange: Server;
  let calls = 0;
  const disputes: ResolvedDisputeSnapshot = [
    { disputeId: 1, requesterId: 2, matcherId: 3, outcome: 'completed', sanction: null },
    { disputeId: 2, requesterId: 3, matcherId: 2, outcome: 'cancelled', sanction: { userId: 2, kind: 'suspension' } },
  ];
  beforeAll(async () => {
    // A fake exchange answering its resolved-disputes snapshot: a page after `afterId`.
    exchange = createServer((req, res) => {
      calls++;
      const url = new URL(req.url ?? '/', 'http://x');
      const afterId = Number(url.searchParams.get('afterId') ?? 0);
      res.writeHead(url.pathname === '/internal/resolved-disputes' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(disputes.filter((d) => d.disputeId > afterId)));
    });
    await new Promise<void>((resolve) => exchange.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => { await new Promise((resolve) => exchange.close(resolve)); });

  it('counts the snapshot\'s disputes and the events\' alike, a dispute in both once; a second start asks no more', async () => {
    const serviceUrls = { exchange: `http://127.0.0.1:${(exchange.address() as AddressInfo).port}` };
    const svc = await startIdentity(db.url, { PROJECTION_BACKFILL: 'on' }, {}, { serviceUrls });
    try {
      const em = svc.ctx.orm.em.fork();
      const [sol, sam] = ['Sol', 'Sam'].map((firstName) => em.create(User, {
        email: `${firstName.toLowerCase()}@puente.test`, firstName, lastName: 'Paz', profileImageUrl: null, referralCode: `${firstName.toUpperCase()}CODE1`, referredById: null, trustRating: null,
      }));
      await em.flush();
      expect([sol!.id, sam!.id]).toEqual([2, 3]); // the ids the snapshot names (the admin is 1)
      await expect.poll(async () => (await svc.ctx.orm.em.fork().findOne(ProjectionBackfill, { name: 'resolvedDisputes' }))?.rows, { timeout: 10_000 }).toBe(2);
      // Dispute 2 again by its event, and a third one resolved since.
      await svc.deliver(
        makeEvent('disputeResolved', 2, { matchId: 12, requestId: 22, requesterId: 3, matcherId: 2, disputeId: 2, outcome: 'cancelled', sanction: { userId: 2, kind: 'suspension' } }),
        makeEvent('disputeResolved', 3, { matchId: 13, requestId: 23, requesterId: 2, matcherId: 3, disputeId: 3, outcome: 'completed', sanction: null }),
      );
      const directory = UserDirectory.parse((await svc.app.inject({ method: 'GET', url: '/admin/users?name=paz' })).json());
      expect(Object.fromEntries(directory.map((u) => [u.firstName, u.disputeOutcomes]))).toEqual({
        Sol: { completed: 2, cancelled: 1, warnings: 0, suspensions: 1 },
        Sam: { completed: 2, cancelled: 1, warnings: 0, suspensions: 0 },
      });
    } finally {
      await svc.stop();
    }
    const before = calls;
    const again = await startIdentity(db.url, { PROJECTION_BACKFILL: 'on' }, {}, { serviceUrls: {} });
    try {
      expect((await again.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      expect(calls).toBe(before);
    } finally {
      await again.stop();
    }
  });
});
