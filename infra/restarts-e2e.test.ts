/**
 * Restarts end to end (distributed, two gateway instances, every process reaching PostgreSQL, Redis and the
 * Kafka-protocol broker through pausable proxies: infra/testing/running-app.ts):
 * - a service started with the broker down serves: identity SIGKILLed while the broker is unreachable, restarted by
 *   the runner, answers its routes through the gateway and /ready 200 (degraded) while the broker is still away, and
 *   keeps running; once the broker is back its consumers join, and the events it published meanwhile, and those
 *   it missed, are applied once each;
 * - a gateway restart: Ana signed in on the web page (real Chromium, the web app as the gateway serves it); the
 *   gateway her page is connected to is SIGKILLed; while it is down, Bob accepts her exchange request through the
 *   other gateway instance; once the runner has restarted it, her page shows the notification without a reload,
 *   read again when its live channel reconnects (the gateway sends only what happens while a socket is open).
 * Each test prints how long each step took; the only bounds on time are generous waits.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import {
  CurrentUser, ExchangeMatch, ExchangeRequest, NotificationCount, NotificationList, ReadyResponse, type Notification, type ServiceName,
} from '@puente/contracts';
import { appClient, describeWithInfra, type AppClient, type SignedIn } from '@puente/testkit';
import { startDistributedApp, type Faults, type RunningTestApp, showOutputOnFailure } from './testing/running-app.ts';
import { buildWeb, launchChromium, recordSockets, screenshotFolder, sendToBackground, socketTimes } from './testing/browser.ts';
import { consumersOfEvents, deliveries, markOutboxes, seconds } from './testing/deliveries.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders, viaBus } from './testing/traders.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'RESTART-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  // A dead instance's outbox lease and group membership lapse within seconds (the defaults suit production).
  OUTBOX_LEASE_MS: '2000', KAFKA_SESSION_TIMEOUT_MS: '3000',
  // The mock broker does not answer a waiting fetch when records arrive (a real one does): short waits.
  KAFKA_FETCH_MAX_WAIT_MS: '100', OUTBOX_POLL_MS: '100',
};
/** How long the broker stays away after the restarted service serves: long enough to see it does not crash-loop. */
const BROKER_AWAY_AFTER_SERVING_MS = 5_000;
const carla = { email: 'carla@puente.test', password: 'password3', firstName: 'Carla', lastName: 'Rojas' };
const carlaAccounts = bankAccountsOf.bob.map((a) => ({ ...a, accountHolder: 'Carla Rojas', accountNumber: a.currency === 'GBP' ? '44556677' : '5566778899' }));

const consumersOf = consumersOfEvents({ ...process.env, ...appEnv });

describeWithInfra(['postgres', 'redis', 'kafka'], 'restarts: a service started with the broker down, a gateway restarted under a signed-in page', () => {
  const webRoot = mkdtempSync(join(tmpdir(), 'puente-restarts-web-'));
  let app: RunningTestApp;
  let faults: Faults;
  let db: pg.Client;
  let client: AppClient;
  let ana: SignedIn;
  let bob: SignedIn;
  let carlaIn: SignedIn;
  let anaRequest: ExchangeRequest;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // The gateway serves the web app from WEB_ROOT (its files as they are when it starts), as `npm run
    // start:distributed` has it serve web/dist.
    await buildWeb(webRoot);
    app = await startApp();
    faults = app.faults!;
    client = appClient(app.url);
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    ana = await client.signUp(traders.ana, ADMIN.code);
    bob = await client.signUp(traders.bob, ADMIN.code);
    carlaIn = await client.signUp(carla, ADMIN.code);
    await addBankAccounts(client, ana, bankAccountsOf.ana);
    await addBankAccounts(client, bob, bankAccountsOf.bob);
    anaRequest = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }));
  }, 420_000);
  afterAll(async () => {
    faults?.broker.resume();
    await browser?.close();
    await db?.end();
    await app?.stop();
    rmSync(webRoot, { recursive: true, force: true });
  }, 60_000);
  showOutputOnFailure(() => app);

  it('a service started with the broker down serves; once the broker is back its consumers join and what it published meanwhile arrives, once', async () => {
    // For comparison: the same restart with the broker up (what a process takes to start on this machine).
    const withBroker = await killAndRestart('identity');
    await vi.waitFor(() => client.json('/api/auth/user', 200, { cookie: carlaIn.cookie }), { timeout: 30_000, interval: 100 });
    const servingWithBroker = Date.now() - withBroker.killedAt;
    const restartsBefore = restartsOf('identity');

    const mark = await markOutboxes(db, ['identity', 'accounts']);
    faults.broker.pause();
    // The runner starts it again after 1 s, with the broker still unreachable: it must listen and serve all the same.
    const { killedAt, restartedAt, readyAt, ready } = await killAndRestart('identity');
    expect(ready).toMatchObject({ status: 'degraded', checks: { database: true, bus: false } });
    // Its routes through the gateway: Carla's profile, read and changed (the change's event waits in its outbox).
    const me = await vi.waitFor(async () => CurrentUser.parse(await client.json('/api/auth/user', 200, { cookie: carlaIn.cookie })), { timeout: 30_000, interval: 100 });
    const servingAt = Date.now();
    expect(me).toMatchObject({ id: carlaIn.id, hasBothAccounts: false });
    await client.json('/api/auth/user', 200, { method: 'PATCH', cookie: carlaIn.cookie, body: { firstName: 'Carlota' } });
    // Events identity will have to catch up on: Carla's bank accounts, added meanwhile through the accounts service.
    await addBankAccounts(client, carlaIn, carlaAccounts);
    // The broker stays away a while longer: the service keeps serving, and is not restarted.
    await sleep(BROKER_AWAY_AFTER_SERVING_MS);
    const still = await fetch(`${app.serviceUrls!.identity}/ready`, { signal: AbortSignal.timeout(5_000) });
    expect([still.status, ReadyResponse.parse(await still.json()).status]).toEqual([200, 'degraded']);
    expect(CurrentUser.parse(await client.json('/api/auth/user', 200, { cookie: carlaIn.cookie })).firstName).toBe('Carlota');
    const restarted = app.processes!.get('identity')!;
    expect(restarted.exitCode ?? restarted.signalCode).toBeNull();
    const restartsMeanwhile = restartsOf('identity') - restartsBefore;

    faults.broker.resume();
    const resumedAt = Date.now();
    // /ready says ok again (the bus answers); its consumers have joined once Carla's profile shows what identity learnt
    // from the accounts service's events, published while it was away.
    await vi.waitFor(async () => {
      const res = await fetch(`${app.serviceUrls!.identity}/ready`, { signal: AbortSignal.timeout(5_000) });
      expect(ReadyResponse.parse(await res.json()).status).toBe('ok');
    }, viaBus);
    const joinedAt = Date.now();
    await vi.waitFor(async () => expect(CurrentUser.parse(await client.json('/api/auth/user', 200, { cookie: carlaIn.cookie })).hasBothAccounts).toBe(true), viaBus);
    const caughtUpAt = Date.now();
    // Every event identity and accounts committed since the mark: published, and applied once by each consumer.
    const { published, lost, duplicates } = await vi.waitFor(async () => {
      const tally = await deliveries(db, mark, consumersOf);
      expect(tally.lost).toEqual([]);
      return tally;
    }, viaBus);

    console.log(`service started with the broker down (identity, SIGKILLed): restarted ${seconds(restartedAt - killedAt)} after the kill, /ready 200 degraded `
      + `${seconds(readyAt - killedAt)} after it, its route through the gateway answering ${seconds(servingAt - killedAt)} after it `
      + `(with the broker up: ${seconds(withBroker.readyAt - withBroker.killedAt)} and ${seconds(servingWithBroker)}); still serving, `
      + `${restartsMeanwhile === 1 ? 'not restarted again' : `restarted ${restartsMeanwhile} times`}, ${seconds(resumedAt - servingAt)} later. `
      + `Broker back: /ready ok in ${seconds(joinedAt - resumedAt)}, its consumers joined and the accounts events it missed applied in ${seconds(caughtUpAt - resumedAt)}; `
      + `${published} events published since the kill, lost ${lost.length}, duplicates ${duplicates.length}`);
    expect(restartsMeanwhile).toBe(1);
    expect(duplicates).toEqual([]);
  }, 240_000);

  it('a gateway restart: the web page shows a notification created meanwhile without a reload', async () => {
    const [first, second] = app.gatewayUrls as [string, string];
    const other = appClient(second);
    const unread = NotificationCount.parse(await client.json('/api/notifications/count', 200, { cookie: ana.cookie })).count;
    const bell = (count: number) => (count > 0 ? `Notifications, ${count} unread` : 'Notifications');
    const folder = screenshotFolder('restarts-e2e');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: first });
    const page = await context.newPage();
    await recordSockets(page);
    await page.goto('/login');
    await page.getByLabel('Email').fill(traders.ana.email);
    await page.getByLabel('Password', { exact: true }).fill(traders.ana.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
    await page.getByRole('button', { name: bell(unread), exact: true }).waitFor();
    await vi.waitFor(async () => expect((await socketTimes(page)).opened).toHaveLength(1), { timeout: 30_000, interval: 100 });
    // The page's 3 s polls would bring the notification too: a page in a background tab does not poll, so what it
    // shows below is what its live channel read again on reconnecting.
    await sendToBackground(page);
    await page.screenshot({ path: join(folder, '1-signed-in.png') });

    const gateway = app.processes!.get('gateway')!;
    gateway.kill('SIGKILL');
    const killedAt = Date.now();
    await vi.waitFor(async () => expect((await socketTimes(page)).closed.length).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    // While it is down: Bob accepts Ana's request through the other instance, and the notification service stores
    // Ana's notification.
    const match = ExchangeMatch.parse(await other.json('/api/exchange-matches', 201, { cookie: bob.cookie, body: { exchangeRequestId: anaRequest.id } }));
    const notification = await vi.waitFor(async () => {
      const list = NotificationList.parse(await other.json('/api/notifications?limit=50', 200, { cookie: ana.cookie }));
      const found = list.find((n) => n.type === 'exchange_match' && n.referenceId === anaRequest.id);
      expect(found).toBeDefined();
      return found as Notification;
    }, viaBus);
    const storedAt = Date.now();
    // The change was made while the page's live channel was disconnected, or the test shows nothing.
    const beforeStored = await socketTimes(page);
    expect(beforeStored.opened.filter((t) => t > killedAt), 'the page reconnected before the notification was stored').toEqual([]);

    await vi.waitFor(async () => {
      expect(app.processes!.get('gateway')!.pid).not.toBe(gateway.pid);
      expect((await fetch(`${first}/health`, { signal: AbortSignal.timeout(2_000) })).status).toBe(200);
    }, { timeout: 60_000, interval: 100 });
    const backAt = Date.now();
    await page.getByRole('button', { name: bell(unread + 1), exact: true }).waitFor({ timeout: 90_000 });
    const shownAt = Date.now();
    // The same document throughout (a reload would have started its record over): its first socket, then the new one.
    const { opened } = await socketTimes(page);
    expect(opened[0]).toBeLessThan(killedAt);
    const reopenedAt = opened.find((t) => t > killedAt);
    expect(reopenedAt, 'the page showed the notification before its live channel reconnected').toBeDefined();
    expect(reopenedAt!).toBeLessThanOrEqual(shownAt);
    await page.getByRole('button', { name: bell(unread + 1), exact: true }).click();
    const listed = page.getByRole('dialog', { name: 'Notifications' }).getByText(notification.content);
    await listed.waitFor();
    await page.screenshot({ path: join(folder, '2-notification-shown.png') });

    console.log(`gateway SIGKILLed under a signed-in page: Bob's accept (match ${match.id}) stored as Ana's notification ${seconds(storedAt - killedAt)} after the kill; `
      + `the gateway answering again ${seconds(backAt - killedAt)} after it, the page's live channel reconnected ${seconds(reopenedAt! - killedAt)} after it, `
      + `and the page showed the notification ${seconds(shownAt - killedAt)} after it (${seconds(shownAt - reopenedAt!)} after reconnecting), without a reload`);
    await context.close();
  }, 240_000);

  /** SIGKILLs a service's process; once the runner has started it again, when that was and when its /ready said 200. */
  async function killAndRestart(name: ServiceName): Promise<{ killedAt: number; restartedAt: number; readyAt: number; ready: ReadyResponse }> {
    const killed = app.processes!.get(name)!;
    killed.kill('SIGKILL');
    const killedAt = Date.now();
    let restartedAt = 0;
    const ready = await vi.waitFor(async () => {
      expect(app.processes!.get(name)!.pid).not.toBe(killed.pid);
      restartedAt ||= Date.now();
      const res = await fetch(`${app.serviceUrls![name]}/ready`, { signal: AbortSignal.timeout(2_000) });
      expect(res.status).toBe(200);
      return ReadyResponse.parse(await res.json());
    }, { timeout: 60_000, interval: 50 });
    return { killedAt, restartedAt, readyAt: Date.now(), ready };
  }

  /** How many times the runner has restarted a process of `name`. */
  function restartsOf(name: string): number {
    return app.log().filter((l) => l.startsWith(`[runner] ${name} stopped (`)).length;
  }

  function startApp(): Promise<RunningTestApp> {
    return startDistributedApp('restarts-e2e', { ...appEnv, WEB_ROOT: webRoot }, { faults: true, gateways: 2 });
  }
});
