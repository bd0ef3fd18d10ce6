/** Test users as the exchange service learns of them: through identity's and accounts' events. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ErrorBody, type Currency, type EventEnvelope, type EventName, type EventPayload } from '@puente/contracts';
import { makeEvent, readEvent } from '@puente/platform';
import { startTestService, type TestService, type TestServiceOptions } from '@puente/platform/testing';
import { useFreshDatabase } from '@puente/testkit';
import { ExchangeSettings, exchangeService } from '../app.ts';

let nextAccountId = 1_000;

/** Delivers a user's registration and, unless told otherwise, a GBP and a CLP account. */
export async function trader(svc: TestService, userId: number, opts: { firstName?: string; lastName?: string; accounts?: ('GBP' | 'CLP')[] } = {}) {
  const { firstName = `User${userId}`, lastName = 'Tester', accounts = ['GBP', 'CLP'] } = opts;
  const added = accounts.map((currency) => ({ accountId: nextAccountId++, userId, currency }));
  const registration = makeEvent('userRegistered', userId, { userId, firstName, lastName, role: 'user', referrerId: null });
  await svc.deliver(registration, ...added.map((account) => makeEvent('bankAccountAdded', account.accountId, account)));
  return {
    userId,
    /** When the registration occurred: the card's memberSince. */
    registeredAt: registration.occurredAt,
    headers: await svc.as({ kind: 'user', userId, role: 'user' }),
    /** The accounts delivered, by currency (for a later bankAccountRemoved). */
    accounts: Object.fromEntries(added.map((a) => [a.currency, a])) as Partial<Record<Currency, { accountId: number; userId: number; currency: Currency }>>,
  };
}

/** Delivers the removal of one of a trader's accounts (as accounts publishes it). */
export async function accountRemoved(svc: TestService, account: { accountId: number; userId: number; currency: Currency }) {
  await svc.deliver(makeEvent('bankAccountRemoved', account.accountId, account));
}

/** Delivers a rating of `userId` by the rating service: the new running average ('4.50') and count. */
export async function rated(svc: TestService, userId: number, toUserAverage: string, toUserCount: number) {
  await svc.deliver(makeEvent('ratingSubmitted', nextAccountId++, {
    ratingId: nextAccountId++, matchId: nextAccountId++, fromUserId: 1, toUserId: userId, rating: 5, toUserAverage, toUserCount,
  }));
}

/** Delivers the user's new first name (identity's profile update; the last name stays 'Trader'). */
export async function renamed(svc: TestService, userId: number, firstName: string) {
  await svc.deliver(makeEvent('userProfileUpdated', userId, { userId, firstName, lastName: 'Trader', profileImageUrl: null }));
}

let lastTierChange = 0;
/**
 * Delivers a subscription event turning the user premium or back to free. Each one occurs strictly after the
 * previous one, so the projection (which ignores an older tier change) always takes it.
 */
export async function tierChanged(svc: TestService, userId: number, tier: 'premium' | 'free') {
  lastTierChange = Math.max(Date.now(), lastTierChange + 1);
  const event: EventEnvelope = tier === 'premium'
    ? makeEvent('subscriptionActivated', userId, { userId, tier, currentPeriodEnd: new Date(lastTierChange + 30 * 86_400_000).toISOString() })
    : makeEvent('subscriptionCancelled', userId, { userId, tier });
  await svc.deliver({ ...event, occurredAt: new Date(lastTierChange).toISOString() });
}

/**
 * The exchange service on a fresh database for the enclosing describe, with a clock the test sets (the routes'
 * created_at and the UTC day and month of the plan limits), and no projection backfill (events feed it).
 */
export function useExchangeService(start = '2026-03-10T12:00:00.000Z', env: Record<string, string> = {}) {
  const db = useFreshDatabase('exchange');
  let svc: TestService | undefined;
  let clock = new Date(start);
  // Chat attachments in a folder of the suite's own.
  const attachmentDir = mkdtempSync(join(tmpdir(), 'puente-attachments-'));
  beforeAll(async () => {
    const settings = ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off', ATTACHMENT_STORAGE_DIR: attachmentDir, ...env });
    svc = await startTestService(exchangeService(settings, { now: () => clock }), db.url);
  });
  afterAll(async () => {
    await svc?.stop();
    rmSync(attachmentDir, { recursive: true, force: true });
  });
  const running = (): TestService => {
    if (!svc) throw new Error('useExchangeService(): the service runs only while the suite runs');
    return svc;
  };
  return {
    /** Where the service stores chat attachments (unless `env` names a bucket). */
    attachmentDir,
    get svc(): TestService { return running(); },
    get now(): Date { return clock; },
    /** Sets the clock to an ISO date-time. */
    setClock(iso: string) { clock = new Date(iso); },
    /** Moves the clock on by `ms`. */
    advance(ms: number) { clock = new Date(clock.getTime() + ms); },
    /** Every event the service has published so far (once the outbox relay has caught up), once each. */
    published(): Promise<EventEnvelope[]> { return publishedOnce(this.svc); },
    /** A request to the service as the gateway forwards it (`headers` say who asks), with a JSON body if given. */
    call: (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
      running().app.inject({ method, url, headers, ...(payload ? { payload } : {}) }),
  };
}

/** A refused request: its status checked, its body the error body of the conventions. */
export function refusal(res: LightMyRequestResponse, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  return ErrorBody.parse(res.json());
}

/** An answered request: its status checked, its JSON body (for the caller to parse with the route's contract). */
export async function ok(res: Promise<LightMyRequestResponse>, status = 200): Promise<unknown> {
  const answer = await res;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json() as unknown;
}

/**
 * The exchange service on `databaseUrl` with the test's clock (routes and timers) and these settings, projection
 * backfill off unless `env` says otherwise; `opts` name the other services' (fake) URLs.
 */
export async function startExchangeOnClock(
  databaseUrl: string, now: () => Date, env: Record<string, string> = {}, opts: TestServiceOptions = {},
): Promise<TestService> {
  return startTestService(exchangeService(ExchangeSettings.parse({ PROJECTION_BACKFILL: 'off', ...env }), { now }), databaseUrl, opts);
}

/** Every event `svc` has published so far (once its outbox relay has caught up), once each. */
export async function publishedOnce(svc: TestService): Promise<EventEnvelope[]> {
  await svc.ctx.relay.flush();
  await svc.bus.drain();
  const seen = new Set<string>();
  return svc.published().filter((e) => !seen.has(e.id) && seen.add(e.id));
}

/** The payloads of the events of one catalogue type `svc` has published so far, in publishing order. */
export async function publishedPayloads<N extends EventName>(svc: TestService, name: N): Promise<EventPayload<N>[]> {
  return (await publishedOnce(svc)).flatMap((e) => {
    const payload = readEvent(name, e);
    return payload === undefined ? [] : [payload];
  });
}
