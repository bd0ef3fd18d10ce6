/**
 * Every change to stored notifications, walked as the product drives it (an event consumed, the fan-out's job, the
 * routes as their user, the purge job on a moved clock, an account's deletion): the list and the count of each user
 * whose answer changed answer a new ETag, and every other one the same ETag. The version table under test:
 * domain/notification-versions.ts.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { NotificationList, Routes, servicePath, type ApiRoute, type EventEnvelope } from '@puente/contracts';
import { makeEvent } from '@puente/platform';
import { PLATFORM_TABLES, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { NotificationSettings, notificationService } from './app.ts';
import * as transitions from './domain/notification-transitions.ts';
import * as notify from './domain/notify.ts';
import * as fanOut from './domain/fan-out.ts';
import { notificationVersions } from './domain/notification-versions.ts';
import { EMAIL_DIGESTS } from './jobs/email-digest.ts';
import { PURGE_READ_NOTIFICATIONS, purgeReadNotifications } from './jobs/purge-read-notifications.ts';

const CAST = { ana: 1, bob: 2, cy: 3 } as const;
type Name = keyof typeof CAST;
type PolledRoute = 'list' | 'count';
const DAY = 24 * 3_600_000;

/** Exports that change nothing themselves. */
const NOT_TRANSITIONS: Record<string, string> = { announce: 'the announcements of what notify and the fan-out stored' };

/** Each entry of the version table, by a scenario that makes it. */
const TABLE_ENTRIES: Record<string, string> = {
  notificationCreated: 'notify', userDeleted: 'userDeleted', notificationsRead: 'markRead', notificationsRemoved: 'purgeReadBatch',
};

interface Expected {
  /** Whose answer of each route changes (every other answer stays as it was). */
  changes: Partial<Record<PolledRoute, Name[]>>;
  /** Answers that get a new ETag though they stay the same, and why the version table cannot tell. */
  exceptions?: { route: PolledRoute; viewers: Name[]; why: string }[];
}

interface Walk {
  svc: TestService;
  /** Delivers a trade event that tells ana (matchCreated) or both (matchExpired); answers it. */
  told(who: 'ana' | 'both'): Promise<EventEnvelope>;
  /** Ana's notifications, newest first. */
  anasIds(): Promise<number[]>;
  put(who: Name, url: string): Promise<void>;
  transition(change: () => Promise<unknown>, expected: Expected): Promise<void>;
}

interface Scenario { name: string; variant?: string; run: (w: Walk) => Promise<void> }

const ana = { list: ['ana'], count: ['ana'] } satisfies Expected['changes'];
const deleted = (userId: number) => makeEvent('userDeleted', userId, { userId });

const SCENARIOS: Scenario[] = [
  { name: 'notify', variant: 'a trade event tells the requester', run: (w) => w.transition(() => w.told('ana'), { changes: ana }) },
  {
    name: 'notify', variant: 'a trade event tells both parties',
    run: (w) => w.transition(() => w.told('both'), { changes: { list: ['ana', 'bob'], count: ['ana', 'bob'] } }),
  },
  {
    name: 'notify', variant: 'the same event redelivered: nothing stored twice',
    run: async (w) => {
      const event = await w.told('ana');
      await w.transition(() => w.svc.deliver(event), { changes: {} });
    },
  },
  {
    name: 'notify', variant: 'a deleted account is told nothing',
    run: async (w) => {
      await w.svc.deliver(deleted(CAST.ana));
      await w.transition(() => w.told('ana'), { changes: {} });
    },
  },
  {
    name: 'notifyTakersPage', variant: 'the fan-out tells everyone who could take the request but its owner',
    run: async (w) => {
      let accountId = 1;
      for (const userId of Object.values(CAST)) {
        for (const currency of ['GBP', 'CLP'] as const) await w.svc.deliver(makeEvent('bankAccountAdded', accountId, { accountId: accountId++, userId, currency }));
      }
      const sent = makeEvent('requestNotificationsSent', 7, {
        requestId: 7, userId: CAST.ana, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000',
      });
      await w.transition(async () => {
        await w.svc.deliver(sent);
        // The job's change, its versions bumped, has ended once nothing is left to run.
        await vi.waitFor(async () => expect(await w.svc.ctx.jobs.counts()).toMatchObject({ waiting: 0, delayed: 0, active: 0 }), { timeout: 4_000 });
      }, { changes: { list: ['bob', 'cy'], count: ['bob', 'cy'] } });
    },
  },
  {
    name: 'markRead',
    run: async (w) => {
      await w.told('ana');
      const [id] = await w.anasIds();
      await w.transition(() => w.put('ana', `/notifications/${id}/read`), { changes: ana });
    },
  },
  {
    name: 'markRead', variant: 'again: nothing changes',
    run: async (w) => {
      await w.told('ana');
      const [id] = await w.anasIds();
      await w.put('ana', `/notifications/${id}/read`);
      await w.transition(() => w.put('ana', `/notifications/${id}/read`), { changes: {} });
    },
  },
  {
    name: 'markAllRead',
    run: async (w) => {
      await w.told('ana');
      await w.told('both');
      await w.transition(() => w.put('ana', '/notifications/read-all'), { changes: ana });
    },
  },
  {
    name: 'markAllRead', variant: 'none unread: nothing changes',
    run: async (w) => {
      await w.told('ana');
      await w.put('ana', '/notifications/read-all');
      await w.transition(() => w.put('ana', '/notifications/read-all'), { changes: {} });
    },
  },
  {
    name: 'purgeReadBatch', variant: 'a read one past 90 days, by the purge job',
    run: async (w) => {
      await w.told('ana');
      await w.told('both');
      const [newest] = await w.anasIds();
      await w.put('ana', `/notifications/${newest}/read`);
      await w.transition(async () => expect(await purgeReadNotifications(w.svc.ctx, new Date(Date.now() + 91 * DAY))).toBe(1), {
        changes: { list: ['ana'] },
      });
    },
  },
  {
    name: 'userDeleted', variant: 'their notifications go',
    run: async (w) => {
      await w.told('both');
      await w.transition(() => w.svc.deliver(deleted(CAST.ana)), { changes: ana });
    },
  },
  {
    name: 'userDeleted', variant: 'an account without notifications',
    run: (w) => w.transition(() => w.svc.deliver(deleted(CAST.ana)), {
      changes: {},
      exceptions: (['list', 'count'] as const).map((route) => ({ route, viewers: ['ana'], why: 'the table reads after the deletion: it cannot tell there were none' })),
    }),
  },
];

describe('the notification transitions walked', () => {
  const walked = new Set(SCENARIOS.map((s) => s.name));
  it('has a scenario for every export of the transition modules but those named, and for every entry of the version table', () => {
    const exports = Object.keys({ ...transitions, ...notify, ...fanOut });
    expect(exports.filter((name) => !walked.has(name) && !NOT_TRANSITIONS[name])).toEqual([]);
    const entries = [...Object.keys(notificationVersions).filter((k) => k !== 'local'), ...Object.keys(notificationVersions.local ?? {})];
    expect(entries.sort()).toEqual(Object.keys(TABLE_ENTRIES).sort());
    for (const walkedBy of Object.values(TABLE_ENTRIES)) expect(walked).toContain(walkedBy);
  });
});

describeWithInfra(['postgres'], 'ETags after the notification transitions', () => {
  const db = useFreshDatabase('notification');
  let svc: TestService;
  const polled = Object.values(Routes.notification as Record<string, ApiRoute>).filter((r) => r.polled);
  beforeAll(async () => {
    svc = await startTestService(notificationService(NotificationSettings.parse({ PROJECTION_BACKFILL: 'off' })), db.url);
    for (const job of [EMAIL_DIGESTS, PURGE_READ_NOTIFICATIONS]) await svc.ctx.jobs.unschedule(job); // run only when a scenario says
  });
  afterAll(async () => { await svc?.stop(); });

  const headers = (who: Name) => svc.as({ kind: 'user', userId: CAST[who], role: 'user' });

  async function readAll(): Promise<Map<string, { etag: string; body: unknown }>> {
    const readings = new Map<string, { etag: string; body: unknown }>();
    for (const who of Object.keys(CAST) as Name[]) {
      for (const route of polled) {
        const res = await svc.app.inject({ method: 'GET', url: servicePath(route), headers: await headers(who) });
        expect(res.statusCode, res.body).toBe(200);
        readings.set(`${route.name} ${who}`, { etag: String(res.headers.etag), body: (route.responses[200] as z.ZodType).parse(res.json()) });
      }
    }
    return readings;
  }

  async function emptied(): Promise<void> {
    const em = svc.ctx.orm.em.fork();
    const tables = (await em.execute<{ tablename: string }[]>('select tablename from pg_tables where schemaname = ?', [svc.name]))
      .map((t) => t.tablename).filter((t) => ![...PLATFORM_TABLES, 'projection_backfill'].includes(t));
    await em.execute(`truncate ${tables.map((t) => `"${svc.name}"."${t}"`).join(', ')}`);
  }

  let nextMatch = 1;
  let transitions = 0;
  const w: Walk = {
    get svc() { return svc; },
    async told(who) {
      const matchId = nextMatch++;
      const parties = { matchId, requestId: 100 + matchId, requesterId: CAST.ana, matcherId: CAST.bob };
      const event = who === 'ana'
        ? makeEvent('matchCreated', matchId, { ...parties, fromCurrency: 'GBP', toCurrency: 'CLP', amount: '100.00', exchangeRate: '1275.0000' })
        : makeEvent('matchExpired', matchId, parties);
      await svc.deliver(event);
      return event;
    },
    async anasIds() {
      const res = await svc.app.inject({ method: 'GET', url: '/notifications', headers: await headers('ana') });
      return NotificationList.parse(res.json()).map((n) => n.id);
    },
    async put(who, url) {
      const res = await svc.app.inject({ method: 'PUT', url, headers: await headers(who) });
      expect(res.statusCode, res.body).toBe(200);
    },
    async transition(change, expected) {
      transitions += 1;
      const before = await readAll();
      await change();
      const after = await readAll();
      const changed: string[] = [];
      const inexact: string[] = [];
      for (const [key, was] of before) {
        const now = after.get(key)!;
        const moved = now.etag !== was.etag;
        const differs = !isDeepStrictEqual(now.body, was.body);
        if (differs) changed.push(key);
        const excepted = expected.exceptions?.find((e) => e.viewers.some((v) => `${e.route} ${v}` === key));
        if (excepted) {
          if (!moved || differs) inexact.push(`${key}: expected a new ETag on the same answer (${excepted.why})`);
        } else if (moved !== differs) {
          inexact.push(`${key}: ${moved ? 'new ETag, same answer' : 'new answer, same ETag'}`);
        }
      }
      const wanted = Object.entries(expected.changes).flatMap(([route, viewers]) => viewers.map((v) => `${route} ${v}`));
      expect({ changed: changed.sort(), inexact }).toEqual({ changed: wanted.sort(), inexact: [] });
    },
  };

  for (const scenario of SCENARIOS) {
    it(scenario.variant ? `${scenario.name}: ${scenario.variant}` : scenario.name, async () => {
      await emptied();
      transitions = 0;
      await scenario.run(w);
      expect(transitions, 'a scenario walks one transition').toBe(1);
    });
  }
});
