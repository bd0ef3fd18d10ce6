/**
 * Faults end to end (distributed): one app on PostgreSQL, Redis and the Kafka-protocol broker, every
 * process reaching them through pausable proxies (infra/testing/running-app.ts), and one test per fault:
 * - the broker unreachable in the middle of exchanges: every service stays ready (degraded, not out of rotation),
 *   every event committed meanwhile is published afterwards, and every projection and notification converges, none
 *   twice;
 * - a service SIGKILLed between its commit and its publish: the runner restarts it, it serves again within seconds
 *   (before its consumer group has dropped the dead member), and its outbox delivers, once;
 * - Redis down for 2 minutes: a signed-in user's polls and writes keep working (the gateway remembers her session);
 *   sign-in, sign-up, referral checks, a password check and an unknown session answer a clear 503; a password reset
 *   ends the user's sessions at once; the fan-out job of an exchange request waits, then runs once;
 * - PostgreSQL cut off under load: every service's /ready says so and recovers by itself (no restart), and the
 *   writes it answered are all delivered;
 * - poison events (unreadable records, a payload its contract refuses, a handler that throws every time) are
 *   parked on the dead-letter topics after their retries, the consumers move on, and `npm run dead-letters -- replay`
 *   applies the fixable one once it is fixed;
 * - Redis flushed (a restart without persistence): /api/health names the services missing a schedule, and every
 *   schedule is back by their next check.
 * Each test prints what it lost and how long convergence took, counted where users and operators see it: the
 * notifications users list, the projections on their profile, the outbox rows and the inbox tables of every consumer.
 * Outages are settings (short by default for CI, but for Redis's: two minutes); a soak run lengthens them, e.g.
 *   npm run soak:faults -w @puente/infra
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import kafkajs from 'kafkajs';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  CurrentUser, ErrorBody, EventEnvelope, Events, ExchangeMatch, ExchangeRequest, NotificationList, Rating, ServiceNames, topicOf,
  type ServiceName,
} from '@puente/contracts';
import { RedisSessionStore, sessionCookieHeader } from '@puente/gateway';
import { appClient, describeWithInfra, mailsIn, overallHealth, type AppClient, type SignedIn } from '@puente/testkit';
import { startDistributedApp, type Faults, type RunningTestApp, showOutputOnFailure } from './testing/running-app.ts';
import { consumersOfEvents, deliveries, markOutboxes as markAll, seconds, type OutboxMark } from './testing/deliveries.ts';
import { serviceDefinitions } from './services.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders, viaBus } from './testing/traders.ts';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
/** How long each outage lasts: short for CI, but Redis's; a soak run sets 60000, 300000 and 30000. */
const OUTAGE_MS = {
  broker: setting('FAULT_BROKER_OUTAGE_MS', 5_000),
  // Two minutes: far past the gateway's 10 s of trust in a session it read, well within its 10 minutes of
  // stale-if-error (SESSION_STALE_IF_ERROR_MINUTES), which a soak run of 5 minutes still stays within.
  redis: setting('FAULT_REDIS_OUTAGE_MS', 120_000),
  postgres: setting('FAULT_POSTGRES_OUTAGE_MS', 5_000),
};
/** How long the app may take to converge once a fault is over. */
const CONVERGE_MS = setting('FAULT_CONVERGE_MS', 60_000);
const testTimeout = (outageMs: number) => outageMs + CONVERGE_MS + 60_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'FAULT-CODE' };
const SESSION_SECRET = randomBytes(32).toString('base64url');
/** Where identity writes its emails (no SMTP here): the password reset's link is read from it. */
const MAIL_DIR = mkdtempSync(join(tmpdir(), 'puente-faults-mail-'));
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code, MAIL_DIR,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, SESSION_SECRET,
  // A dead instance's outbox lease and group membership lapse within seconds (the defaults suit production).
  OUTBOX_LEASE_MS: '2000', KAFKA_SESSION_TIMEOUT_MS: '3000',
  // The mock broker does not answer a waiting fetch when records arrive (a real one does): short waits.
  KAFKA_FETCH_MAX_WAIT_MS: '100', OUTBOX_POLL_MS: '100',
  // Schedules checked every 3 s, not 30 s, so the Redis-flush test waits seconds.
  SCHEDULES_CHECK_MS: '3000',
};
const carla = { email: 'carla@puente.test', password: 'password3', firstName: 'Carla', lastName: 'Rojas' };
const dan = { email: 'dan@puente.test', password: 'password4', firstName: 'Dan', lastName: 'Ortiz' };
const carlaAccounts = bankAccountsOf.bob.map((a) => ({ ...a, accountHolder: 'Carla Rojas', accountNumber: a.currency === 'GBP' ? '44556677' : '5566778899' }));
const danAccounts = bankAccountsOf.ana.map((a) => ({ ...a, accountHolder: 'Dan Ortiz', accountNumber: a.currency === 'GBP' ? '11223344' : '1122334455' }));

const consumersOf = consumersOfEvents({ ...process.env, ...appEnv });

/** A user and the notifications they should see, as `<type> <referenceId>`. */
interface Expected { who: SignedIn; notifications: string[] }
/** What a fault cost: the events committed since its mark, and what of them (or of the users' view) is missing. */
interface Tally { published: number; lost: string[]; duplicates: string[] }
type Mark = OutboxMark;

describeWithInfra(['postgres', 'redis', 'kafka'], 'faults: broker, SIGKILL, Redis and PostgreSQL outages, poison events', () => {
  let app: RunningTestApp;
  let faults: Faults;
  let db: pg.Client;
  let client: AppClient;
  let ana: SignedIn;
  let bob: SignedIn;
  let carlaIn: SignedIn;
  let danIn: SignedIn;
  let anaRequest: ExchangeRequest;
  let bobRequest: ExchangeRequest;
  let anaBobMatch: ExchangeMatch;
  let bobAnaMatch: ExchangeMatch;

  beforeAll(async () => {
    app = await startDistributedApp('faults-e2e', appEnv, { faults: true });
    faults = app.faults!;
    client = appClient(app.url);
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    await setUp().catch((err: unknown) => {
      console.warn(`the app's last output:\n${app.output().join('\n')}`);
      throw err;
    });
  }, 180_000);
  async function setUp() {
    ana = await client.signUp(traders.ana, ADMIN.code);
    bob = await client.signUp(traders.bob, ADMIN.code);
    carlaIn = await client.signUp(carla, ADMIN.code);
    danIn = await client.signUp(dan, ADMIN.code);
    await addBankAccounts(client, ana, bankAccountsOf.ana);
    await addBankAccounts(client, bob, bankAccountsOf.bob);
    anaRequest = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 }));
    bobRequest = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', bob, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 120_000, exchangeRate: 1270 }));
  }
  afterAll(async () => {
    faults?.broker.resume();
    faults?.redis.resume();
    faults?.postgres.resume();
    await db?.end();
    await app?.stop();
    rmSync(MAIL_DIR, { recursive: true, force: true });
  }, 60_000);
  showOutputOnFailure(() => app);

  it('the broker unreachable mid-exchange: every service stays ready, degraded; every event committed meanwhile is published and applied once', async () => {
    const mark = await markOutboxes();
    const linesBefore = app.log().length;
    faults.broker.pause();
    const cutAt = Date.now();
    // Each step is the service's own: it commits (with its events in the outbox) and answers, broker or not.
    anaBobMatch = ExchangeMatch.parse(await client.json('/api/exchange-matches', 201, { cookie: bob.cookie, body: { exchangeRequestId: anaRequest.id } }));
    bobAnaMatch = ExchangeMatch.parse(await client.json('/api/exchange-matches', 201, { cookie: ana.cookie, body: { exchangeRequestId: bobRequest.id } }));
    await client.json(`/api/exchange-matches/${anaBobMatch.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
    await addBankAccounts(client, carlaIn, carlaAccounts);
    await client.json('/api/auth/user', 200, { method: 'PATCH', cookie: danIn.cookie, body: { firstName: 'Daniel' } });
    // Ready means "can serve": every service stays in rotation, saying it is degraded.
    await vi.waitFor(async () => {
      const health = await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(10_000) });
      expect([health.status, overallHealth(await health.json())]).toEqual([200, { status: 'degraded', services: Object.fromEntries(ServiceNames.map((n) => [n, 'degraded'])) }]);
    }, { timeout: OUTAGE_MS.broker, interval: 200 });
    expect(await readiness()).toEqual({ ready: ServiceNames.length, database: ServiceNames.length, gateway: 200 });
    await sleep(Math.max(0, cutAt + OUTAGE_MS.broker - Date.now())); // the outage lasts its setting
    faults.broker.resume();
    // Quiet logs: each cause once per LOG_REPEAT_WINDOW_MS in each process, not a line per retry (1,578 lines for a
    // 45 s outage before). Eight processes, a handful of causes each, a window or two: well under 200 at warn.
    const outageLines = app.log().length - linesBefore;
    console.log(`broker outage: ${outageLines} log lines at warn from the ${ServiceNames.length + 1} processes`);
    expect(outageLines).toBeLessThan(200);

    const result = await converge(mark, [
      { who: ana, notifications: [`exchange_match ${anaRequest.id}`] },
      { who: bob, notifications: [`exchange_match ${bobRequest.id}`, `exchange_confirmed ${anaRequest.id}`] },
    ], async () => {
      // Carla's profile shows what identity learnt from the accounts service over the bus.
      const me = CurrentUser.parse(await client.json('/api/auth/user', 200, { cookie: carlaIn.cookie }));
      return me.hasBothAccounts ? [] : ['carla: hasBothAccounts still false'];
    });
    report(`broker outage ${seconds(OUTAGE_MS.broker)}`, result);
  }, testTimeout(OUTAGE_MS.broker));

  it('a service SIGKILLed between its commit and its publish: serving again within seconds, its outbox delivers the event once', async () => {
    const mark = await markOutboxes();
    faults.broker.pause();
    await client.json(`/api/exchange-matches/${bobAnaMatch.id}/confirm`, 200, { method: 'PUT', cookie: bob.cookie });
    // Committed, and its publish tried and failed: the moment between the commit and a publish that would succeed.
    await expect.poll(async () => Number((await db.query<{ n: string }>(
      'select count(*) as n from exchange.outbox_event where id > $1 and published_at is null and attempts > 0', [mark.exchange])).rows[0]?.n),
    { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
    const exchange = app.processes!.get('exchange')!;
    exchange.kill('SIGKILL');
    const killedAt = Date.now();
    faults.broker.resume();
    // Serve first, join later: the restarted process answers before its consumer group has dropped the dead member.
    await vi.waitFor(async () => {
      expect(app.processes!.get('exchange')!.pid).not.toBe(exchange.pid);
      expect((await fetch(`${app.serviceUrls!.exchange}/ready`, { signal: AbortSignal.timeout(2_000) })).status).toBe(200);
    }, { timeout: 30_000, interval: 50 });
    const servingAfterMs = Date.now() - killedAt;
    console.log(`SIGKILL: exchange serving again ${seconds(servingAfterMs)} after the kill (the runner waits 1 s before restarting it)`);
    expect(servingAfterMs).toBeLessThan(15_000);

    const result = await converge(mark, [{ who: ana, notifications: [`exchange_confirmed ${bobRequest.id}`] }], async () =>
      (app.log().some((l) => l.includes('[runner] exchange stopped (SIGKILL); restarting it')) && app.processes!.get('exchange')!.pid !== exchange.pid
        ? [] : ['exchange not restarted yet']), killedAt);
    report('SIGKILL between commit and publish (exchange)', result, 'after the kill');
  }, testTimeout(0));

  it('Redis down 2 minutes: a signed-in user polls and writes throughout, what guards a credential answers 503, a reset ends sessions at once, the fan-out job waits and runs once', async () => {
    const carlaRequest = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', carlaIn, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 90, exchangeRate: 1280 }));
    // A session in Redis that this gateway never saw (as if granted by another instance).
    const redis = new Redis(faults.redisUrl);
    const unseenId = randomUUID();
    await new RedisSessionStore(redis).save(unseenId, { userId: danIn.id, role: 'user', expiresAt: Date.now() + 3_600_000 });
    await redis.quit();
    const unseen = sessionCookieHeader(unseenId, SESSION_SECRET);
    // Fay, signed in on her laptop and her phone, asked for a reset link before the outage.
    const fay = await client.signUp({ email: 'fay@puente.test', password: 'password6', firstName: 'Fay', lastName: 'Lind' }, ADMIN.code);
    const fayPhone = (await client.login(fay.email, fay.password)).cookie!;
    await client.json('/api/auth/forgot-password', 200, { body: { email: fay.email } });
    const resetToken = await vi.waitFor(async () => {
      const mail = (await mailsIn(MAIL_DIR)).find((m) => m.to === fay.email && m.kind === 'password-reset');
      const token = /\/reset-password#token=([\w-]{43})/.exec(mail?.text ?? '')?.[1];
      expect(token).toBeDefined();
      return token!;
    }, { timeout: 20_000, interval: 200 });
    for (const cookie of [ana.cookie, fay.cookie, fayPhone]) expect((await client.call('/api/auth/user', { cookie })).status).toBe(200);
    const mark = await markOutboxes();

    faults.redis.pause();
    const cutAt = Date.now();
    const notify = client.json(`/api/exchange-requests/${carlaRequest.id}/notify`, 200, { method: 'POST', cookie: carlaIn.cookie });
    const unavailable = async (what: Promise<Response>, message: string) => {
      const asked = Date.now();
      const res = await what;
      expect([res.status, ErrorBody.parse(await res.json())]).toEqual([503, { code: 'service_unavailable', message }]);
      expect(Date.now() - asked).toBeLessThan(5_000);
    };
    await unavailable(client.call('/api/auth/user', { cookie: unseen }), 'Sessions are not available right now. Please try again in a minute.');
    await unavailable(client.login(dan.email, dan.password).then((r) => r.res), 'Signing in is not available right now. Please try again in a minute.');
    await unavailable(client.call('/api/signup/request', { body: { ...dan, email: 'erin@puente.test', referralCode: ADMIN.code } }),
      'Signing up is not available right now. Please try again in a minute.');
    await unavailable(client.call(`/api/auth/verify-referral/${ADMIN.code}`), 'Checking referral codes is not available right now. Please try again in a minute.');
    await unavailable(client.call('/api/auth/change-password', { cookie: ana.cookie, body: { currentPassword: 'not her password', newPassword: 'not set either 1' } }),
      'Checking your password is not available right now. Please try again in a minute.');
    expect(await notify).toMatchObject({ message: '2 users will be notified about your exchange request.' });

    // The reset from the emailed link ends both of Fay's sessions at once, Redis away or not.
    const reset = await client.call('/api/auth/reset-password', { body: { token: resetToken, password: 'fay new password 1' } });
    expect(reset.status, await reset.clone().text()).toBe(200);
    const resetAt = Date.now();
    const endedStatuses = [(await client.call('/api/auth/user', { cookie: fay.cookie })).status, (await client.call('/api/auth/user', { cookie: fayPhone })).status];
    const endedMs = Date.now() - resetAt;
    expect(endedStatuses).toEqual([401, 401]);

    // Ana and Carla keep using the app throughout: their sessions are in the gateway's memory.
    const polls = ['/api/auth/user', '/api/exchange-requests', '/api/notifications', '/api/notifications/count'];
    const answered = { polls: 0, writes: 0, slowestMs: 0, failed: [] as string[] };
    const timed = async (what: string, call: () => Promise<Response>, expected: number) => {
      const started = Date.now();
      const res = await call();
      answered.slowestMs = Math.max(answered.slowestMs, Date.now() - started);
      if (res.status !== expected) answered.failed.push(`${what}: ${res.status} ${await res.text()}`);
      else await res.body?.cancel();
      return res.status === expected;
    };
    const write = async (i: number) => {
      if (await timed('chat message', () => client.call(`/api/exchange-matches/${anaBobMatch.id}/messages`, { cookie: ana.cookie, body: { text: `still here ${i}` } }), 201)) answered.writes++;
    };
    await write(0);
    if (await timed('exchange request', () => client.call('/api/exchange-requests', {
      cookie: carlaIn.cookie, body: { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 80, exchangeRate: 1280 },
    }), 201)) answered.writes++;
    for (let i = 1; Date.now() < cutAt + OUTAGE_MS.redis; i++) {
      for (const path of polls) if (await timed(`GET ${path}`, () => client.call(path, { cookie: ana.cookie }), 200)) answered.polls++;
      if (i % 20 === 0) await write(i);
      await sleep(1_000);
    }
    // The fan-out waits for Redis (its job is queued there): nobody has been told yet.
    const polledAt = Date.now();
    expect(await listed(bob)).not.toContain(`exchange_request ${carlaRequest.id}`);
    const polledMs = Date.now() - polledAt;
    faults.redis.resume();
    console.log(`redis outage ${seconds(OUTAGE_MS.redis)}: Ana's polls answered ${answered.polls} times and her and Carla's writes ${answered.writes} times, `
      + `the slowest in ${seconds(answered.slowestMs)}; ${answered.failed.length} failed; Fay's two sessions refused, checked ${endedMs} ms after her reset answered`);
    expect(answered.failed).toEqual([]);

    const request = `exchange_request ${carlaRequest.id}`;
    const result = await converge(mark, [{ who: ana, notifications: [request] }, { who: bob, notifications: [request] }], async () => {
      const [login, unseenNow] = [(await client.login(dan.email, dan.password)).res, await client.call('/api/auth/user', { cookie: unseen })];
      // Fay's ended sessions stay ended once Redis is back (their deletion reached it); her new password signs her in.
      const fayNow = [(await client.call('/api/auth/user', { cookie: fay.cookie })).status, (await client.login(fay.email, 'fay new password 1')).res.status];
      return [
        ...(login.status === 200 ? [] : [`sign-in answers ${login.status}`]), ...(unseenNow.status === 200 ? [] : [`the unseen session answers ${unseenNow.status}`]),
        ...(fayNow[0] === 401 && fayNow[1] === 200 ? [] : [`Fay's old session answers ${fayNow[0]}, her new password ${fayNow[1]}`]),
      ];
    });
    report(`redis outage ${seconds(OUTAGE_MS.redis)}: sign-in, sign-up, a referral check, a password check and an unseen session answered 503; `
      + `a polled list answered in ${seconds(polledMs)}; the fan-out job ran after`, result);
  }, testTimeout(OUTAGE_MS.redis));

  it('PostgreSQL cut off under load: /ready says so and recovers without a restart; every write answered is delivered', async () => {
    const mark = await markOutboxes();
    const restartsBefore = restarts();
    const answered = { ok: 0, refused: 0, other: [] as string[] };
    let loading = true;
    const load = (async () => {
      for (let i = 0; loading; i++) {
        const write = await client.call('/api/auth/user', { method: 'PATCH', cookie: danIn.cookie, body: { firstName: `Dan${String.fromCharCode(97 + (i % 26))}` } });
        const read = await client.call('/api/notifications', { cookie: ana.cookie });
        for (const res of [write, read]) {
          if (res.ok) answered.ok++;
          else if (res.status >= 500) answered.refused++;
          else answered.other.push(`${res.status} ${await res.text()}`);
        }
        await sleep(50);
      }
    })();
    await sleep(500); // some load before the cut
    faults.postgres.pause();
    const cutAt = Date.now();
    await vi.waitFor(async () => expect(await readiness()).toEqual({ ready: 0, database: 0, gateway: 503 }), { timeout: 20_000, interval: 100 });
    const downIn = Date.now() - cutAt;
    // An event that reaches its consumers while they cannot reach their database: a copy (new id) of Dan's last
    // profile update. Their handlers fail for as long as the cut lasts; it must wait, not go to the dead letters.
    const { rows: [last] } = await db.query<{ envelope: unknown }>(
      'select envelope from identity.outbox_event where type = $1 order by id desc limit 1', [Events.userProfileUpdated.type]);
    const arriving = { ...EventEnvelope.parse(last?.envelope), id: randomUUID() };
    await withProducer((producer) => producer.send({ topic: topicOf('identity'), acks: -1, messages: [{ key: arriving.aggregateId, value: JSON.stringify(arriving) }] }));
    await sleep(Math.max(0, cutAt + OUTAGE_MS.postgres - Date.now()));
    faults.postgres.resume();
    const resumedAt = Date.now();
    await vi.waitFor(async () => expect(await readiness()).toEqual({ ready: ServiceNames.length, database: ServiceNames.length, gateway: 200 }), { timeout: CONVERGE_MS, interval: 100 });
    const upIn = Date.now() - resumedAt;
    loading = false;
    await load;

    const result = await converge(mark, [], async () => {
      const missing: string[] = [];
      for (const consumer of consumersOf.get(Events.userProfileUpdated.type) ?? []) {
        const applied = Number((await db.query<{ n: string }>(`select count(*) as n from ${consumer}.inbox_entry where event_id = $1`, [arriving.id])).rows[0]?.n);
        if (applied !== 1) missing.push(`the profile update that arrived during the cut: applied ${applied} times by ${consumer}`);
      }
      return missing;
    }, resumedAt);
    report(`postgres cut off ${seconds(OUTAGE_MS.postgres)} under load: ${answered.ok} calls answered, ${answered.refused} refused with 5xx meanwhile; `
      + `/ready down in ${seconds(downIn)}, up ${seconds(upIn)} after; ${restarts() - restartsBefore} restarts; an event delivered during the cut applied after`, result, 'after');
    expect(answered.other).toEqual([]);
    expect(restarts()).toBe(restartsBefore);
  }, testTimeout(OUTAGE_MS.postgres));

  it('poison events are dead-lettered after their retries, the consumers move on, and the replay command applies the fixed one', async () => {
    const topic = topicOf('accounts');
    // Every group reading the topic parks what it cannot read; those applying bank-account.added also the invalid one.
    const groups = [...new Set(Object.values(Events).filter((e) => e.producer === 'accounts').flatMap((e) => consumersOf.get(e.type) ?? []))].sort();
    const applyingAdded = consumersOf.get(Events.bankAccountAdded.type) ?? [];
    const partitions = [0, 1, 2, 3];
    const poisonFor = (group: string) => partitions.length * (applyingAdded.includes(group as ServiceName) ? 2 : 1);
    const admin = kafka().admin();
    await admin.connect();
    try {
      const parked = async (group: string) => {
        const offsets = await admin.fetchTopicOffsets(`puente.dead-letter.${group}`).catch(() => []);
        return offsets.reduce((sum, p) => sum + Number(p.high), 0);
      };
      const parkedBefore = Object.fromEntries(await Promise.all([...groups, 'notification'].map(async (g) => [g, await parked(g)] as const)));
      // The outages before parked nothing: an event whose handler could not reach its database waited instead.
      expect(parkedBefore).toEqual(Object.fromEntries([...groups, 'notification'].map((g) => [g, 0])));
      const mark = await markOutboxes();
      const invalid = (partition: number) => ({
        partition, key: 'poison', value: JSON.stringify({
          id: randomUUID(), type: Events.bankAccountAdded.type, version: Events.bankAccountAdded.version, occurredAt: new Date().toISOString(),
          producer: 'accounts', aggregateId: 'poison', payload: { accountId: 'not an id' },
        }),
      });
      // On every partition: a record that is no event at all, then an event whose payload its contract refuses.
      await withProducer((producer) => producer.send({ topic, acks: -1, messages: partitions.flatMap((p) => [{ partition: p, key: 'poison', value: 'this is not an event' }, invalid(p)]) }));
      const sentAt = Date.now();
      // Good events after them, on whichever partition they land: Dan's accounts, which identity, exchange and
      // notification each apply.
      await addBankAccounts(client, danIn, danAccounts);
      await vi.waitFor(async () => {
        for (const g of groups) expect([g, await parked(g) - parkedBefore[g]!]).toEqual([g, poisonFor(g)]);
        expect(CurrentUser.parse(await client.json('/api/auth/user', 200, { cookie: danIn.cookie })).hasBothAccounts).toBe(true);
      }, { timeout: CONVERGE_MS, interval: 200 });
      const movedOnIn = Date.now() - sentAt;

      // A handler that throws every time until someone fixes its cause: here the notifications table refusing a type.
      await db.query(`alter table notification.notification add constraint faults_e2e_refuses check (type <> 'exchange_completed') not valid`);
      const completed = ExchangeMatch.parse(await client.json(`/api/exchange-matches/${anaBobMatch.id}/complete`, 200, { method: 'PUT', cookie: bob.cookie }));
      expect(completed.status).toBe('completed');
      await vi.waitFor(async () => expect(await parked('notification') - parkedBefore.notification!).toBe(poisonFor('notification') + 1), { timeout: CONVERGE_MS, interval: 200 });
      // The notification service moved on: Bob hears of Ana's rating of their exchange.
      Rating.parse(await vi.waitFor(() => client.json('/api/ratings', 201, { cookie: ana.cookie, body: { exchangeMatchId: anaBobMatch.id, toUserId: bob.id, rating: 5 } }), viaBus));
      await vi.waitFor(async () => expect(await listed(bob)).toContain(`rating ${anaRequest.id}`), viaBus);
      expect(await listed(ana)).not.toContain(`exchange_completed ${anaRequest.id}`);

      await db.query('alter table notification.notification drop constraint faults_e2e_refuses');
      const replayedAt = Date.now();
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'dead-letters', '--', 'replay', 'notification'], {
        cwd: root, env: { ...process.env, KAFKA_BROKERS: faults.kafkaBrokers.join(',') }, timeout: 120_000,
      });
      expect(stdout).toContain(`replayed ${poisonFor('notification') + 1} dead letters of notification`);
      expect(stdout).toMatch(/replayed exchange\.match\.completed \S+ to puente\.exchange \(gave up after 5 attempts: .*faults_e2e_refuses/);

      const result = await converge(mark, [{ who: ana, notifications: [`exchange_completed ${anaRequest.id}`] }, { who: bob, notifications: [`rating ${anaRequest.id}`] }], async () => [], replayedAt);
      report(`poison events: ${groups.map((g) => `${poisonFor(g)} unreadable or invalid records parked by ${g}`).join(', ')}, and an event whose handler threw by notification; `
        + `consumers moved on in ${seconds(movedOnIn)}; replayed after the fix`, result);
    } finally {
      await admin.disconnect();
    }
  }, testTimeout(0) + 120_000);

  // Last: a flush also ends every session.
  it('Redis flushed: every recurring job\'s schedule is back by the next check, and /api/health names who missed one meanwhile', async () => {
    const scheduled = ServiceNames.filter((name) => (serviceDefinitions({ ...process.env, ...appEnv })[name].schedules ?? []).length > 0);
    const redis = new Redis(faults.redisUrl);
    try {
      await redis.flushall();
      const flushedAt = Date.now();
      const health = async () => overallHealth(await (await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(10_000) })).json());
      const degraded = (await health()).services;
      await vi.waitFor(async () => expect(await health()).toEqual({ status: 'ok', services: Object.fromEntries(ServiceNames.map((n) => [n, 'ok'])) }), { timeout: 30_000, interval: 200 });
      const backInMs = Date.now() - flushedAt;
      const said = scheduled.filter((n) => degraded[n] === 'degraded');
      console.log(`redis flushed: ${said.length} of ${scheduled.length} services with schedules said degraded at once; every schedule back in ${seconds(backInMs)} (checked every 3 s)`);
      // Each service's check runs on its own clock: one may have registered again before the first look.
      expect(said.length).toBeGreaterThan(0);
    } finally {
      await redis.quit();
    }
  }, 60_000);

  /** A Kafka client of the test's own, reaching the brokers as the app does. */
  function kafka() {
    return new kafkajs.Kafka({ clientId: 'faults-e2e', brokers: faults.kafkaBrokers, logLevel: kafkajs.logLevel.NOTHING });
  }

  /** Records written straight to the broker, as a misbehaving producer (or a replay) would. */
  async function withProducer(send: (producer: kafkajs.Producer) => Promise<unknown>): Promise<void> {
    const producer = kafka().producer({ createPartitioner: kafkajs.Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      await send(producer);
    } finally {
      await producer.disconnect();
    }
  }

  const markOutboxes = () => markAll(db);

  /** What a user lists in their notifications, as `<type> <referenceId>`. */
  async function listed(who: SignedIn): Promise<string[]> {
    return NotificationList.parse(await client.json('/api/notifications?limit=500', 200, { cookie: who.cookie })).map((n) => `${n.type} ${n.referenceId}`);
  }

  /** Every event committed since the mark: published? applied once by each of its consumers? And what users see. */
  async function tally(mark: Mark, expected: Expected[], also: () => Promise<string[]>): Promise<Tally> {
    const { published, lost, duplicates } = await deliveries(db, mark, consumersOf);
    for (const { who, notifications } of expected) {
      const seen = await listed(who);
      for (const n of notifications) if (!seen.includes(n)) lost.push(`${who.firstName}: no ${n}`);
      for (const [i, n] of seen.entries()) if (seen.indexOf(n) !== i) duplicates.push(`${who.firstName}: ${n} twice`);
    }
    lost.push(...await also());
    return { published, lost, duplicates };
  }

  /** Polls the tally until nothing is lost (or CONVERGE_MS passes); the figures and how long it took from `from`. */
  async function converge(mark: Mark, expected: Expected[], also: () => Promise<string[]> = async () => [], from = Date.now()) {
    let last: Tally = { published: 0, lost: ['not counted yet'], duplicates: [] };
    await vi.waitFor(async () => {
      last = await tally(mark, expected, also);
      expect(last.lost).toEqual([]);
    }, { timeout: CONVERGE_MS, interval: 250 }).catch(() => { /* reported with the figures below */ });
    return { ...last, convergedMs: Date.now() - from };
  }

  /** Prints the fault's figures and requires nothing lost and nothing twice. */
  function report(fault: string, result: Tally & { convergedMs: number }, since = 'after the fault') {
    console.log(`${fault}: ${result.published} events published after, lost ${result.lost.length}, duplicates ${result.duplicates.length}, `
      + `converged in ${seconds(result.convergedMs)} ${since}`);
    expect({ lost: result.lost, duplicates: result.duplicates }).toEqual({ lost: [], duplicates: [] });
  }

  /** How many services answer /ready, how many of them see their database, and the gateway's /api/health status. */
  async function readiness(): Promise<{ ready: number; database: number; gateway: number }> {
    const answers = await Promise.all(ServiceNames.map(async (name) => {
      const res = await fetch(`${app.serviceUrls![name]}/ready`, { signal: AbortSignal.timeout(5_000) });
      const body = await res.json() as { checks?: { database?: boolean } };
      return { ready: res.status === 200, database: body.checks?.database === true };
    }));
    const health = await fetch(`${app.url}/api/health`, { signal: AbortSignal.timeout(10_000) });
    return { ready: answers.filter((a) => a.ready).length, database: answers.filter((a) => a.database).length, gateway: health.status };
  }

  /** How many times the runner restarted a crashed process. */
  function restarts(): number {
    return app.log().filter((l) => /^\[runner\] \S+ stopped \(/.test(l)).length;
  }
});
