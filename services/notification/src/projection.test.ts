/**
 * The projection of account holders starts full: a start without its snapshot pages through the accounts service's
 * internal route (retrying while it is unavailable), once; accounts' events keep it current, and a removal is never
 * undone by an older snapshot row. The users' names too, from identity's snapshot, a newer event's name kept.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { servicePath, Routes, type AccountCurrency, type InternalUser } from '@puente/contracts';
import { INTERNAL_TOKEN_HEADER, ProjectionBackfill, makeEvent, type ServiceDefinition } from '@puente/platform';
import { startTestService, testAuth, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import { AccountHolder } from './domain/account-holders.ts';
import { Notification } from './domain/notification.ts';
import { UserName } from './domain/user-names.ts';
import { ACCOUNT_HOLDERS, BACKFILL_ACCOUNT_HOLDERS, USER_NAMES } from './jobs/backfill-account-holders.ts';

/** Identity's users snapshot, faked on the same server: two users. */
const USERS: InternalUser[] = [[1, 'Ana', 'Rojas'], [2, 'Bea', 'Lagos']].map(([id, firstName, lastName]) => ({
  id: id as number, firstName: firstName as string, lastName: lastName as string, language: 'en', email: `u${id}@puente.test`, profileImageUrl: null,
  trustRating: null, ratingCount: 0, transactionCount: 0, emailVerified: true, phoneVerified: false, idVerified: false, bankVerified: false,
  subscriptionTier: 'free', hasBothAccounts: true, createdAt: '2026-01-15T10:00:00.000Z',
}));


/**
 * The accounts service's snapshot route, faked: 501 accounts (two pages of 500), user n holding accounts 2n-1 (GBP)
 * and 2n (CLP), so users 1-250 hold both and user 251 only GBP. Its first answer is a 503 (accounts still starting).
 */
const SNAPSHOT: AccountCurrency[] = Array.from({ length: 501 }, (_, i) => ({
  accountId: i + 1, userId: Math.ceil((i + 1) / 2), currency: i % 2 === 0 ? 'GBP' : 'CLP',
}));

interface FakeAccounts { url: string; calls: { afterId: number; limit: number; caller: unknown }[]; server: Server }

async function fakeAccounts(): Promise<FakeAccounts> {
  const calls: FakeAccounts['calls'] = [];
  const auth = testAuth('accounts');
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === servicePath(Routes.identity.internalUsers)) {
        const page = USERS.filter((u) => u.id > Number(url.searchParams.get('afterId')));
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
      }
      if (url.pathname !== servicePath(Routes.accounts.accountCurrencies)) return res.writeHead(404).end();
      const caller = await auth.verify(String(req.headers[INTERNAL_TOKEN_HEADER] ?? '')).catch(() => null);
      const afterId = Number(url.searchParams.get('afterId'));
      const limit = Number(url.searchParams.get('limit'));
      calls.push({ afterId, limit, caller });
      if (calls.length === 1) return res.writeHead(503).end();
      const page = SNAPSHOT.filter((a) => a.accountId > afterId).slice(0, limit);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, calls, server };
}

/** Starts the service with `settings`, recording the jobs its start enqueues. */
async function start(dbUrl: string, accountsUrl: string, env: Record<string, string>): Promise<{ svc: TestService; enqueued: string[] }> {
  const def = notificationService(NotificationSettings.parse(env));
  const enqueued: string[] = [];
  const observed: ServiceDefinition = {
    ...def,
    async onStart(ctx) {
      const spy = vi.spyOn(ctx.jobs, 'enqueue');
      try {
        await def.onStart?.(ctx);
      } finally {
        enqueued.push(...spy.mock.calls.map(([name]) => name));
        spy.mockRestore();
      }
    },
  };
  const svc = await startTestService(observed, dbUrl, { serviceUrls: { accounts: accountsUrl, identity: accountsUrl } });
  return { svc, enqueued };
}

describe('NotificationSettings', () => {
  it('backfills by default (an empty variable counts as unset), and accepts only on or off', () => {
    expect(NotificationSettings.parse({})).toEqual({ PROJECTION_BACKFILL: 'on' });
    expect(NotificationSettings.parse({ PROJECTION_BACKFILL: ' ' })).toEqual({ PROJECTION_BACKFILL: 'on' });
    expect(NotificationSettings.parse({ PROJECTION_BACKFILL: 'off' })).toEqual({ PROJECTION_BACKFILL: 'off' });
    expect(() => NotificationSettings.parse({ PROJECTION_BACKFILL: 'yes' })).toThrow('PROJECTION_BACKFILL must be on or off');
  });
});

describeWithInfra(['postgres'], 'the account holders projection', () => {
  let accounts: FakeAccounts;
  let running: TestService | undefined;
  beforeAll(async () => { accounts = await fakeAccounts(); });
  afterEach(async () => { await running?.stop(); running = undefined; });
  afterAll(async () => { await new Promise((resolve) => accounts?.server.close(resolve)); });

  describe('with PROJECTION_BACKFILL on', () => {
    const db = useFreshDatabase('notification');

    it('fills it from the accounts snapshot once, retrying while accounts is unavailable, under the events', async () => {
      const first = await start(db.url, accounts.url, { PROJECTION_BACKFILL: 'on' });
      running = first.svc;
      expect(first.enqueued).toEqual([BACKFILL_ACCOUNT_HOLDERS]);
      const em = () => first.svc.ctx.orm.em.fork();
      // While the snapshot waits for its retry, events arrive: user 2 removes the CLP account (4) the snapshot still
      // lists, and user 999 adds both accounts after the snapshot's last one.
      await first.svc.deliver(
        { ...makeEvent('userProfileUpdated', 2, { userId: 2, firstName: 'Beatriz', lastName: 'Lagos', profileImageUrl: null }), occurredAt: new Date(Date.now() + 60_000).toISOString() },
        makeEvent('bankAccountRemoved', 4, { accountId: 4, userId: 2, currency: 'CLP' }),
        makeEvent('bankAccountAdded', 1001, { accountId: 1001, userId: 999, currency: 'GBP' }),
        makeEvent('bankAccountAdded', 1002, { accountId: 1002, userId: 999, currency: 'CLP' }),
      );

      await vi.waitFor(async () => expect(await em().findOne(ProjectionBackfill, { name: ACCOUNT_HOLDERS })).not.toBeNull(), { timeout: 10_000, interval: 100 });
      expect((await em().findOneOrFail(ProjectionBackfill, { name: ACCOUNT_HOLDERS })).rows).toBe(501);
      // A 503 (retried with backoff), then two pages of 500, asked as the notification service.
      expect(accounts.calls.map(({ afterId, limit }) => ({ afterId, limit }))).toEqual([
        { afterId: 0, limit: 500 }, { afterId: 0, limit: 500 }, { afterId: 500, limit: 500 },
      ]);
      for (const call of accounts.calls) expect(call.caller).toEqual({ kind: 'service', service: 'notification' });
      expect(await em().count(AccountHolder, {})).toBe(503);
      expect(await em().findOneOrFail(AccountHolder, { accountId: 4 })).toMatchObject({ userId: 2, currency: 'CLP', removed: true });
      // The names: identity's snapshot, but the newer name an event brought.
      await vi.waitFor(async () => expect(await em().findOne(ProjectionBackfill, { name: USER_NAMES })).not.toBeNull(), { timeout: 10_000, interval: 100 });
      expect((await em().find(UserName, {}, { orderBy: { userId: 'asc' } })).map((u) => [u.userId, u.name])).toEqual([[1, 'Ana Rojas'], [2, 'Beatriz Lagos']]);

      // The fan-out reaches the snapshot's users and the events' user: users 3-250 and 999 (not the owner, not user 2
      // whose CLP account is gone, not user 251 with GBP only).
      const event = makeEvent('requestNotificationsSent', 7, { requestId: 7, userId: 1, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' });
      await first.svc.deliver(event);
      const expected = [...Array.from({ length: 248 }, (_, i) => i + 3), 999];
      await vi.waitFor(async () => expect(await em().count(Notification, { sourceEventId: event.id })).toBe(expected.length), { timeout: 10_000, interval: 100 });
      const users = (await em().find(Notification, { sourceEventId: event.id }, { orderBy: { userId: 'asc' } })).map((n) => n.userId);
      expect(users).toEqual(expected);

      // A restart finds the snapshot taken: it does not take it again.
      await first.svc.stop();
      running = undefined;
      const calls = accounts.calls.length;
      const second = await start(db.url, accounts.url, { PROJECTION_BACKFILL: 'on' });
      running = second.svc;
      expect(second.enqueued).toEqual([]);
      expect(accounts.calls).toHaveLength(calls);
    }, 30_000);
  });

  describe('with PROJECTION_BACKFILL off', () => {
    const db = useFreshDatabase('notification');

    it('takes no snapshot: the events alone fill it', async () => {
      const calls = accounts.calls.length;
      const { svc, enqueued } = await start(db.url, accounts.url, { PROJECTION_BACKFILL: 'off' });
      running = svc;
      expect(enqueued).toEqual([]);
      expect(accounts.calls).toHaveLength(calls);
      expect(await svc.ctx.orm.em.fork().count(ProjectionBackfill, {})).toBe(0);
    });
  });
});
