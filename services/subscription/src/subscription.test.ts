import { afterAll, beforeAll, expect, it } from 'vitest';
import { ReadyResponse } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { subscriptionService } from './app.ts';
import { Subscription } from './domain/subscription.ts';

describeWithInfra(['postgres'], 'subscription service', () => {
  const db = useFreshDatabase('subscription');
  let svc: TestService;
  beforeAll(async () => { svc = await startTestService(subscriptionService(), db.url); });
  afterAll(async () => { await svc?.stop(); });

  const registered = (userId: number) =>
    makeEvent('userRegistered', userId, { userId, firstName: 'Ana', lastName: 'Diaz', role: 'user', referrerId: 1 });

  it('puts a newly registered user on the free plan, once even if the event arrives twice', async () => {
    const event = registered(42);
    await svc.deliver(event, event);
    const rows = await svc.ctx.orm.em.fork().find(Subscription, { userId: 42 });
    expect(rows.map((s) => [s.tier, s.status])).toEqual([['free', 'none']]);
  });

  it('reports ready when its database, bus and job runner are up', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/ready' });
    expect(ReadyResponse.parse(res.json())).toEqual({ status: 'ok', checks: { database: true, bus: true, jobs: true, schedules: true } });
  });
});
