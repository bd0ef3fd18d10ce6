/**
 * Walking the exchange's transitions past its polled routes (versions-after-*.test.ts): a cast of traders on a
 * service whose clock the test moves, everything but the rate emptied before each scenario, and a step that reads
 * every polled route as each of them before and after one transition. A route whose answer changed must answer a
 * new ETag, one whose answer did not the same one; an exception says why the version table cannot tell.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { Dispute, ExchangeMatch, ExchangeRequest, Routes, servicePath, type ApiRoute } from '@puente/contracts';
import { PLATFORM_TABLES, type TestService } from '@puente/platform/testing';
import { useFreshDatabase } from '@puente/testkit';
import { SWEEP_TRADE_TIMERS, sweepTradeTimers, type SweepOutcome, type TradeTimers } from '../jobs/sweep-trade-timers.ts';
import { ok, startExchangeOnClock, trader } from './traders.ts';

type Headers = Record<string, string>;
type ExchangeRoutes = typeof Routes.exchange;
export type PolledRoute = { [K in keyof ExchangeRoutes]: ExchangeRoutes[K] extends { polled: object } ? K : never }[keyof ExchangeRoutes];
/** Every polled route of the exchange, from the contracts: one declared later is walked too. */
const POLLED = Object.values(Routes.exchange as Record<string, ApiRoute>).filter((r) => r.polled);

/** The cast: ana mostly requests, bob mostly accepts, cy looks on; dee joins some scenarios. */
export const CAST = { ana: 1, bob: 2, cy: 3, dee: 4 } as const;
export type Name = keyof typeof CAST;
const ADMIN_ID = 900;
/** The tables a scenario starts without rows in: all but the rate history, the backfill's record and the platform's. */
const KEPT_TABLES = [...PLATFORM_TABLES, 'exchange_rate', 'projection_backfill'];

export interface Expected {
  /** Whose answer of each polled route changes (every other answer stays as it was). */
  changes: Partial<Record<PolledRoute, Name[]>>;
  /** Answers that get a new ETag though they stay the same, and why the version table cannot tell. */
  exceptions?: { route: PolledRoute; viewers: Name[]; why: string }[];
}

type Reading = { etag: string; body: unknown };

export interface Walk {
  svc: TestService;
  /** The users reading the polled routes: ana, bob and cy, and whoever joined. */
  readers: Partial<Record<Name, Headers>>;
  /** Registers a cast member (with both accounts) and adds them to the readers. */
  join(name: Name): Promise<Headers>;
  /** Headers of a cast member the service has not heard of, reading anyway. */
  reader(name: Name): Promise<Headers>;
  advance(ms: number): void;
  post(who: Name, amount?: number): Promise<ExchangeRequest>;
  /** The owner cancels, marks done or announces their request. */
  request(who: Name, requestId: number, action: 'cancel' | 'complete' | 'notify'): Promise<void>;
  accept(who: Name, requestId: number): Promise<ExchangeMatch>;
  act(who: Name, matchId: number, action: 'confirm' | 'complete' | 'cancel' | 'paid' | 'received'): Promise<void>;
  dispute(who: Name, matchId: number): Promise<Dispute>;
  resolve(disputeId: number, outcome: 'completed' | 'cancelled'): Promise<void>;
  block(who: Name, whom: Name): Promise<void>;
  unblock(who: Name, whom: Name): Promise<void>;
  /** Runs the trade timers now (nothing due unless the scenario says: 24 h to approve, 30 days open, 72 h to answer a receipt question). */
  sweep(timers?: Partial<TradeTimers>): Promise<SweepOutcome>;
  /** Reads every polled route as every reader, runs the transition, reads them again and checks the ETags. */
  transition(change: () => Promise<unknown>, expected: Expected): Promise<void>;
}

/** The exchange service for the enclosing describe; `run` empties its data and walks one scenario. */
export function useWalk(start = '2026-03-10T12:00:00.000Z') {
  const db = useFreshDatabase('exchange');
  let svc: TestService | undefined;
  let clock = new Date(start);
  beforeAll(async () => {
    svc = await startExchangeOnClock(db.url, () => clock);
    await svc.ctx.jobs.unschedule(SWEEP_TRADE_TIMERS); // scenarios sweep at the instants they choose
  });
  afterAll(async () => { await svc?.stop(); });

  async function emptied(s: TestService): Promise<void> {
    const em = s.ctx.orm.em.fork();
    const tables = await em.execute<{ tablename: string }[]>('select tablename from pg_tables where schemaname = ?', [s.name]);
    const emptying = tables.map((t) => t.tablename).filter((t) => !KEPT_TABLES.includes(t));
    await em.execute(`truncate ${emptying.map((t) => `"${s.name}"."${t}"`).join(', ')}`);
  }

  async function readAll(s: TestService, readers: Partial<Record<Name, Headers>>): Promise<Map<string, Reading>> {
    const readings = new Map<string, Reading>();
    for (const [name, headers] of Object.entries(readers)) {
      for (const route of POLLED) {
        const res = await s.app.inject({ method: 'GET', url: servicePath(route), headers });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers.etag, `${route.name} as ${name}`).toBeDefined();
        readings.set(`${route.name} ${name}`, { etag: String(res.headers.etag), body: (route.responses[200] as z.ZodType).parse(res.json()) });
      }
    }
    return readings;
  }

  /** What changed and what did not match the ETags, as `route viewer` lines. */
  function compare(before: Map<string, Reading>, after: Map<string, Reading>, expected: Expected) {
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
    return { changed: changed.sort(), inexact };
  }

  return {
    async run(scenario: (w: Walk) => Promise<void>): Promise<void> {
      const s = svc!;
      await emptied(s);
      const readers: Partial<Record<Name, Headers>> = {};
      const headersOf = (who: Name) => readers[who] ?? (() => { throw new Error(`${who} has not joined`); })();
      const call = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, who: Name | Headers, payload?: object) =>
        s.app.inject({ method, url, headers: typeof who === 'string' ? headersOf(who) : who, ...(payload ? { payload } : {}) });
      let transitions = 0;
      const w: Walk = {
        svc: s,
        readers,
        async join(name) { return readers[name] = (await trader(s, CAST[name], { firstName: name })).headers; },
        async reader(name) { return readers[name] = await s.as({ kind: 'user', userId: CAST[name], role: 'user' }); },
        advance(ms) { clock = new Date(clock.getTime() + ms); },
        post: async (who, amount = 100) =>
          ExchangeRequest.parse(await ok(call('POST', '/exchange-requests', who, { fromCurrency: 'GBP', toCurrency: 'CLP', amount, exchangeRate: 1275 }), 201)),
        async request(who, requestId, action) {
          await ok(action === 'notify' ? call('POST', `/exchange-requests/${requestId}/notify`, who) : call('PATCH', `/exchange-requests/${requestId}/${action}`, who));
        },
        accept: async (who, exchangeRequestId) => ExchangeMatch.parse(await ok(call('POST', '/exchange-matches', who, { exchangeRequestId }), 201)),
        async act(who, matchId, action) { await ok(call('PUT', `/exchange-matches/${matchId}/${action}`, who)); },
        dispute: async (who, matchId) =>
          Dispute.parse(await ok(call('POST', `/exchange-matches/${matchId}/dispute`, who, { reason: 'no_payment', statement: 'Nothing came' }), 201)),
        async resolve(disputeId, outcome) {
          const admin = await s.as({ kind: 'user', userId: ADMIN_ID, role: 'admin' });
          await ok(call('POST', `/admin/disputes/${disputeId}/resolve`, admin, { outcome, note: 'Decided on the statements' }));
        },
        async block(who, whom) { await ok(call('POST', '/blocked-users', who, { userId: CAST[whom] }), 201); },
        async unblock(who, whom) { expect((await call('DELETE', `/blocked-users/${CAST[whom]}`, who)).statusCode).toBe(204); },
        sweep: (timers = {}) =>
          sweepTradeTimers(s.ctx, { matchApprovalHours: 24, completionReminderHours: [], requestExpiryDays: 30, ...timers }, clock),
        async transition(change, expected) {
          transitions += 1;
          const before = await readAll(s, readers);
          await change();
          const after = await readAll(s, readers);
          const wanted = Object.entries(expected.changes).flatMap(([route, viewers]) => viewers.map((v) => `${route} ${v}`)).sort();
          expect(compare(before, after, expected)).toEqual({ changed: wanted, inexact: [] });
        },
      };
      for (const name of ['ana', 'bob', 'cy'] as const) await w.join(name);
      await scenario(w);
      expect(transitions, 'a scenario walks one transition').toBe(1);
    },
  };
}

/** A scenario: the transition it walks (an export of a transition module, or a consumed event) and how. */
export interface Scenario {
  name: string;
  variant?: string;
  run: (w: Walk) => Promise<void>;
}

export const titleOf = (s: Scenario) => (s.variant ? `${s.name}: ${s.variant}` : s.name);
