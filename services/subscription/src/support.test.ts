import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorBody, SubscriptionPersonalData, SupportQueue, SupportQueueItem, SupportRequest, SupportRequestList } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { subscriptionService } from './app.ts';
import { Subscription } from './domain/subscription.ts';
import { SupportRequest as SupportRequestRow } from './domain/support.ts';
import { subscribers, type Subscriber } from './testing/subscribers.ts';

const SAME_TIME = '2026-03-10T12:00:00.000Z';

describeWithInfra(['postgres'], 'priority support', () => {
  const db = useFreshDatabase('subscription');
  let svc: TestService;
  let clock = new Date(SAME_TIME);
  let admin: Record<string, string>;
  beforeAll(async () => {
    svc = await startTestService(subscriptionService(undefined, { now: () => clock }), db.url);
    admin = await svc.as({ kind: 'user', userId: 1, role: 'admin' });
  });
  afterAll(async () => { await svc?.stop(); });
  const { user } = subscribers(() => svc, 300);

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers?: Record<string, string>, payload?: object) =>
    svc.app.inject({ method, url, ...(headers ? { headers } : {}), ...(payload ? { payload } : {}) });
  async function ask(u: Subscriber, subject: string) {
    const res = await call('POST', '/support-requests', u.headers, { subject, message: `Help with ${subject}, please.` });
    expect(res.statusCode, res.body).toBe(201);
    return SupportRequest.parse(res.json());
  }
  async function queue(query = '') {
    const res = await call('GET', `/admin/support-requests${query}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return { items: SupportQueue.parse(res.json()), total: Number(res.headers['x-total-count']) };
  }
  const premium = async (u: Subscriber) => {
    await svc.ctx.orm.em.fork().nativeUpdate(Subscription, { userId: u.userId }, { tier: 'premium', status: 'active' });
  };

  it('queues open requests premium users\' first, then oldest first, even under the same timestamp', async () => {
    const [ana, bruno, carla] = [await user(), await user(), await user()];
    await premium(carla);
    clock = new Date(SAME_TIME);
    const first = await ask(ana, 'Limits');
    const second = await ask(bruno, 'Bank details');
    const third = await ask(carla, 'Refund');
    clock = new Date('2026-03-10T11:00:00.000Z'); // older than the rest, but on the free plan
    const oldest = await ask(bruno, 'Login');
    expect(third).toEqual({
      id: third.id, subject: 'Refund', message: 'Help with Refund, please.', status: 'open', reply: null,
      createdAt: SAME_TIME, resolvedAt: null,
    });
    const { items, total } = await queue();
    expect(items.map((i) => [i.subject, i.tier, i.userId])).toEqual([
      ['Refund', 'premium', carla.userId], ['Login', 'free', bruno.userId], ['Limits', 'free', ana.userId], ['Bank details', 'free', bruno.userId],
    ]);
    expect(total).toBe(4);
    expect([first.id < second.id, oldest.id > third.id]).toEqual([true, true]);
    // Upgrading moves a user's waiting requests ahead at once; pages follow the same order.
    await premium(ana);
    const page = await queue('?limit=2&offset=1');
    expect([page.items.map((i) => i.subject), page.total]).toEqual([['Refund', 'Login'], 4]);
    expect((await queue('?limit=1')).items.map((i) => [i.subject, i.tier])).toEqual([['Limits', 'premium']]);
  });

  it('lets an admin mark a request answered with a reply, or closed, once; the author sees it', async () => {
    const dan = await user();
    const request = await ask(dan, 'Missing payment');
    clock = new Date('2026-03-11T09:30:00.000Z');
    const res = await call('PUT', `/admin/support-requests/${request.id}/resolve`, admin, { status: 'answered', reply: 'It arrived this morning.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(SupportQueueItem.parse(res.json())).toMatchObject({ status: 'answered', reply: 'It arrived this morning.', resolvedAt: '2026-03-11T09:30:00.000Z', tier: 'free' });
    const again = await call('PUT', `/admin/support-requests/${request.id}/resolve`, admin, { status: 'closed' });
    expect([again.statusCode, ErrorBody.parse(again.json())]).toEqual([409, { message: 'This support request has already been answered or closed', code: 'support_request_resolved' }]);
    const mine = SupportRequestList.parse((await call('GET', '/support-requests', dan.headers)).json());
    expect(mine.map((r) => [r.subject, r.status, r.reply])).toEqual([['Missing payment', 'answered', 'It arrived this morning.']]);
    expect((await queue()).items.map((i) => i.id)).not.toContain(request.id);
    const missing = await call('PUT', '/admin/support-requests/999999/resolve', admin, { status: 'closed' });
    expect([missing.statusCode, ErrorBody.parse(missing.json()).message]).toEqual([404, 'Support request not found']);
    const noReply = await call('PUT', `/admin/support-requests/${(await ask(dan, 'Other')).id}/resolve`, admin, { status: 'answered' });
    expect([noReply.statusCode, ErrorBody.parse(noReply.json()).message]).toEqual([400, 'A reply is required to mark a request answered']);
  });

  it('shows each user only their own requests, and the queue and its actions to admins only', async () => {
    const [eve, frank] = [await user(), await user()];
    await ask(eve, 'Eve\'s question');
    const own = SupportRequestList.parse((await call('GET', '/support-requests', frank.headers)).json());
    expect(own).toEqual([]);
    for (const [method, url] of [['GET', '/admin/support-requests'], ['PUT', '/admin/support-requests/1/resolve']] as const) {
      const asUser = await call(method, url, eve.headers, method === 'PUT' ? { status: 'closed' } : undefined);
      expect([method, url, asUser.statusCode]).toEqual([method, url, 403]);
      expect((await call(method, url, undefined, method === 'PUT' ? { status: 'closed' } : undefined)).statusCode).toBe(401);
    }
    for (const [method, url] of [['GET', '/support-requests'], ['POST', '/support-requests']] as const) {
      expect((await call(method, url, undefined, method === 'POST' ? { subject: 'a', message: 'b' } : undefined)).statusCode).toBe(401);
    }
  });

  it("gives a user's support requests in their data download, and deletes them with the account", async () => {
    const hana = await user();
    const request = await ask(hana, 'Close my account');
    const download = await call('GET', `/internal/personal-data/subscription?userId=${hana.userId}`, await svc.as({ kind: 'service', service: 'identity' }));
    expect(SubscriptionPersonalData.parse(download.json()).supportRequests).toEqual([request]);
    await svc.deliver(makeEvent('userDeleted', hana.userId, { userId: hana.userId }));
    expect((await queue('?limit=500')).items.map((i) => i.id)).not.toContain(request.id);
    expect(await svc.ctx.orm.em.fork().count(SupportRequestRow, { userId: hana.userId })).toBe(0);
  });

  it('refuses an empty or over-long request with the field\'s message, and a sixth open one', async () => {
    const gina = await user();
    const empty = await call('POST', '/support-requests', gina.headers, { subject: '  ', message: '' });
    expect([empty.statusCode, ErrorBody.parse(empty.json())]).toEqual([400, {
      message: 'Subject is required', code: 'validation_failed',
      errors: [{ field: 'subject', message: 'Subject is required' }, { field: 'message', message: 'Message is required' }],
    }]);
    const long = await call('POST', '/support-requests', gina.headers, { subject: 'x'.repeat(121), message: 'Hi' });
    expect([long.statusCode, ErrorBody.parse(long.json()).message]).toEqual([400, 'Subject must be at most 120 characters']);
    for (let i = 1; i <= 5; i++) await ask(gina, `Question ${i}`);
    const sixth = await call('POST', '/support-requests', gina.headers, { subject: 'Question 6', message: 'Hi' });
    expect([sixth.statusCode, ErrorBody.parse(sixth.json())]).toEqual([409, {
      message: 'You have 5 open support requests: please wait for an answer before writing another.', code: 'support_requests_open',
    }]);
  });
});
