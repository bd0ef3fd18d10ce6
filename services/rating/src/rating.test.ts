import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RatingList, type User } from '@puente/contracts';
import { ProjectionBackfill, makeEvent } from '@puente/platform';
import { PLATFORM_TABLES, schemaReport, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { RatingSettings, ratingService } from './app.ts';

describeWithInfra(['postgres'], 'rating service', () => {
  const db = useFreshDatabase('rating');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(ratingService(RatingSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url); });
  afterAll(async () => { await svc?.stop(); });

  it('migrates its own schema, and only it, and reports ready', async () => {
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const { schemas, tables } = await schemaReport(svc);
    expect(schemas).toEqual(['rating']);
    expect(tables).toEqual(expect.arrayContaining([...PLATFORM_TABLES, 'rating', 'trade', 'rater', 'projection_backfill']));
  });

  it('serves its three routes, and identity\'s for a user\'s data', () => {
    const served = svc.app.servedRoutes.map((r) => `${r.method} ${r.url}`).filter((r) => !['GET /health', 'GET /ready'].includes(r)).sort();
    expect(served).toEqual(['GET /internal/personal-data/ratings', 'GET /ratings/exchange/:exchangeMatchId', 'GET /ratings/user/:userId', 'POST /ratings']);
  });

  it('settings: PROJECTION_BACKFILL defaults to on, and refuses anything but on or off', () => {
    expect(RatingSettings.parse({})).toEqual({ PROJECTION_BACKFILL: 'on' });
    expect(RatingSettings.parse({ PROJECTION_BACKFILL: '' })).toEqual({ PROJECTION_BACKFILL: 'on' });
    expect(RatingSettings.safeParse({ PROJECTION_BACKFILL: 'yes' }).error?.issues[0]?.message).toBe('PROJECTION_BACKFILL must be on or off');
  });
});

describeWithInfra(['postgres'], 'rating service with PROJECTION_BACKFILL on', () => {
  const db = useFreshDatabase('rating');
  let identity: Server;
  let calls = 0;
  const user = (id: number, firstName: string): User => ({
    id, firstName, lastName: 'Tester', email: `u${id}@puente.test`, profileImageUrl: null, trustRating: null, ratingCount: 0,
    transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
    subscriptionTier: 'free', hasBothAccounts: true, createdAt: '2026-01-01T00:00:00.000Z',
  });
  const users = [user(1, 'Ana'), user(2, 'Bruno'), user(3, 'Carla')];
  beforeAll(async () => {
    // A fake identity answering its internal users route: a snapshot page after `afterId`.
    identity = createServer((req, res) => {
      calls++;
      const url = new URL(req.url ?? '/', 'http://x');
      const afterId = Number(url.searchParams.get('afterId') ?? 0);
      res.writeHead(url.pathname === '/internal/users' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(users.filter((u) => u.id > afterId)));
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => { await new Promise((resolve) => identity.close(resolve)); });

  it('fills the raters\' names from identity at the first start, once; newer events still win', async () => {
    const serviceUrls = { identity: `http://127.0.0.1:${(identity.address() as AddressInfo).port}` };
    const svc = await startTestService(ratingService(RatingSettings.parse({ PROJECTION_BACKFILL: 'on' })), db.url, { serviceUrls });
    try {
      const em = () => svc.ctx.orm.em.fork();
      await expect.poll(async () => (await em().findOne(ProjectionBackfill, { name: 'users' }))?.rows, { timeout: 10_000 }).toBe(3);
      // Ana (1) rates Bruno (2) after a completed match: her name comes from the snapshot.
      const p = { matchId: 7, requestId: 70, requesterId: 1, matcherId: 2 };
      const terms = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' } as const;
      await svc.deliver(makeEvent('matchCompleted', 7, { ...p, ...terms }));
      const ana = await svc.as({ kind: 'user', userId: 1, role: 'user' });
      expect((await svc.app.inject({ method: 'POST', url: '/ratings', headers: ana, payload: { exchangeMatchId: 7, toUserId: 2, rating: 5 } })).statusCode).toBe(201);
      const names = async () => RatingList.parse((await svc.app.inject({ method: 'GET', url: '/ratings/user/2', headers: ana })).json()).map((r) => r.fromUser.firstName);
      expect(await names()).toEqual(['Ana']);
      // An event older than the snapshot does not overwrite it; a newer one does.
      const profile = (firstName: string, ms: number) => ({
        ...makeEvent('userProfileUpdated', 1, { userId: 1, firstName, lastName: 'T', profileImageUrl: null }), occurredAt: new Date(ms).toISOString(),
      });
      await svc.deliver(profile('Before', Date.now() - 3_600_000));
      expect(await names()).toEqual(['Ana']);
      await svc.deliver(profile('Anita', Date.now() + 60_000));
      expect(await names()).toEqual(['Anita']);
    } finally {
      await svc.stop();
    }
    // A second start finds the snapshot taken: identity is not asked again.
    const before = calls;
    const again = await startTestService(ratingService(RatingSettings.parse({ PROJECTION_BACKFILL: 'on' })), db.url, { serviceUrls: {} });
    try {
      expect((await again.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      expect(calls).toBe(before);
    } finally {
      await again.stop();
    }
  });
});
