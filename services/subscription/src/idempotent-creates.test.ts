/**
 * Idempotent creates of this service (the platform's idempotency.ts): a support request or a checkout sent again under
 * its Idempotency-Key gets the first answer, and nothing is created twice.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CreateSubscriptionResponse, ErrorBody, IdempotencyRefusals, SupportRequest } from '@puente/contracts';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { subscriptionService } from './app.ts';
import { Subscription } from './domain/subscription.ts';
import { SupportRequest as SupportRequestRow } from './domain/support.ts';
import { subscribers, type Subscriber } from './testing/subscribers.ts';

describeWithInfra(['postgres'], 'idempotent creates of the subscription service', () => {
  const db = useFreshDatabase('subscription');
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(subscriptionService(undefined, { now: () => new Date('2026-03-10T12:00:00.000Z') }), db.url);
  });
  afterAll(async () => { await svc?.stop(); });
  const { user } = subscribers(() => svc, 700);

  const post = (u: Subscriber, url: string, key: string, payload?: object) => svc.app.inject({
    method: 'POST', url, headers: { ...u.headers, 'idempotency-key': key }, ...(payload ? { payload } : {}),
  });

  it('answers a support request sent again under its key with the first answer, and stores one', async () => {
    const ana = await user();
    const asked = { subject: 'Limits', message: 'How much may I post a day?' };
    const first = await post(ana, '/support-requests', 'form-1', asked);
    const again = await post(ana, '/support-requests', 'form-1', asked);
    expect(first.statusCode, first.body).toBe(201);
    expect([again.statusCode, again.headers['idempotent-replayed'], SupportRequest.parse(again.json())]).toEqual([201, 'true', SupportRequest.parse(first.json())]);
    const changedMind = await post(ana, '/support-requests', 'form-1', { ...asked, message: 'And a week?' });
    expect([changedMind.statusCode, ErrorBody.parse(changedMind.json()).code]).toEqual([409, IdempotencyRefusals.reused.code]);
    expect(await svc.ctx.orm.em.fork().count(SupportRequestRow, { userId: ana.userId })).toBe(1);
  });

  it('answers a checkout sent again under its key with the same payment to confirm, without asking the provider again', async () => {
    const ana = await user();
    const first = await post(ana, '/create-subscription', 'checkout-1');
    const again = await post(ana, '/create-subscription', 'checkout-1');
    expect(first.statusCode, first.body).toBe(200);
    expect([again.statusCode, again.headers['idempotent-replayed'], CreateSubscriptionResponse.parse(again.json())])
      .toEqual([200, 'true', CreateSubscriptionResponse.parse(first.json())]);
    const row = await svc.ctx.orm.em.fork().findOneOrFail(Subscription, { userId: ana.userId });
    expect(row.providerSubscriptionId).toBe(CreateSubscriptionResponse.parse(first.json()).subscriptionId);
  });
});
