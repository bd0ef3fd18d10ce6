/**
 * Horizontal scale end to end (distributed): two instances of exchange, notification and the gateway, the other
 * services once, on PostgreSQL, Kafka and Redis. Ana and Bob, signed in through different gateway instances and each
 * with a /ws socket there, run a whole exchange: post → accept → approve → bank details → complete → both rate.
 * After the accept, one instance of each is SIGKILLed: the exchange and notification instances publishing their
 * outboxes (the others must take their leases and their consumer groups' partitions over) and Bob's gateway, whose
 * browser reconnects to the other one, as behind a load balancer. Every live message and notification still reaches
 * its user exactly once. Take-over times are settings, short here so that CI stays within its budget.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pg from 'pg';
import {
  CurrentUser, ErrorBody, ExchangeMatch, ExchangeRequest, MatchAccountsResponse, NotificationList, Rating, ServiceNames,
} from '@puente/contracts';
import { appClient, describeWithInfra, type AppClient, type SignedIn } from '@puente/testkit';
import { startDistributedApp, type RunningTestApp, showOutputOnFailure } from './testing/running-app.ts';
import { openLiveSocket, saying, type LiveSocket } from './testing/live-socket.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders, viaBus } from './testing/traders.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'SCALE-CODE' };
/** How soon the instances left take over from a dead one (the defaults, 10-30 s, suit production, not CI). */
const TAKE_OVER = { OUTBOX_LEASE_MS: '2000', KAFKA_SESSION_TIMEOUT_MS: '3000', JOB_LOCK_MS: '5000' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  ...TAKE_OVER,
  // The mock broker does not answer a waiting fetch when records arrive (a real one does): short waits.
  KAFKA_FETCH_MAX_WAIT_MS: '100', OUTBOX_POLL_MS: '100',
  RATE_LIMIT_LOGIN_ACCOUNT_IP: '3/15m',
};
/** For a live message: at once, or after a take-over. */
const live = { timeout: 60_000, interval: 25 };

describeWithInfra(['postgres', 'redis', 'kafka'], 'two instances of exchange, notification and the gateway; one of each SIGKILLed mid-exchange', () => {
  let app: RunningTestApp;
  let db: pg.Client;
  let atFirst: AppClient;
  let atSecond: AppClient;
  let ana: SignedIn;
  let bob: SignedIn;
  const sockets: LiveSocket[] = [];

  beforeAll(async () => {
    app = await startDistributedApp('scale-e2e', appEnv, { gateways: 2, instances: { exchange: 2, notification: 2 } });
    [atFirst, atSecond] = app.gatewayUrls.map((url) => appClient(url)) as [AppClient, AppClient];
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
  }, 150_000);
  afterAll(async () => {
    for (const s of sockets) s.socket.close();
    await db?.end();
    await app?.stop();
  }, 60_000);
  showOutputOnFailure(() => app);

  it('signs Ana up through one gateway instance and Bob through the other; each session works on both (Redis)', async () => {
    ana = await atFirst.signUp(traders.ana, ADMIN.code);
    bob = await atSecond.signUp(traders.bob, ADMIN.code);
    for (const client of [atFirst, atSecond]) {
      for (const user of [ana, bob]) expect(CurrentUser.parse(await client.json('/api/auth/user', 200, { cookie: user.cookie })).id).toBe(user.id);
    }
  }, 60_000);

  it('counts failed logins on both gateway instances against one limit (Redis)', async () => {
    const answers: Response[] = [];
    for (const client of [atFirst, atSecond, atFirst, atSecond]) answers.push((await client.login('nobody@puente.test', 'not a password')).res);
    expect(answers.map((res) => res.status)).toEqual([401, 401, 401, 429]);
    expect(ErrorBody.parse(await answers[3]!.json()).message).toMatch(/^Too many failed login attempts/);
  });

  it('completes a whole exchange while one instance of each is SIGKILLed; every live message and notification arrives once', async () => {
    const [first, second] = app.gatewayUrls as [string, string];
    const anaSockets = [await openLiveSocket('ana on the first gateway', first, ana.cookie)];
    const bobSockets = [await openLiveSocket('bob on the second gateway', second, bob.cookie)];
    sockets.push(...anaSockets, ...bobSockets);
    /** What a user's sockets received, all of them, old and new. */
    const got = (of: LiveSocket[]) => of.flatMap((s) => s.got.map(({ message }) => saying(message)));
    const arrived = (of: LiveSocket[], count: number) => vi.waitFor(() => expect(got(of).length).toBeGreaterThanOrEqual(count), live);

    await addBankAccounts(atFirst, ana, bankAccountsOf.ana);
    await addBankAccounts(atSecond, bob, bankAccountsOf.bob);
    const request = ExchangeRequest.parse(await onceAccountsKnown(atFirst, '/api/exchange-requests', ana, {
      fromCurrency: 'GBP', toCurrency: 'CLP', amount: 150.25, exchangeRate: 1275,
    }));
    const match = ExchangeMatch.parse(await onceAccountsKnown(atSecond, '/api/exchange-matches', bob, { exchangeRequestId: request.id }));
    await arrived(anaSockets, 1);

    // SIGKILL at a moment no event waits in an outbox: one killed between publishing and marking a batch would have
    // it published again (at least once: the services' inbox applies it once, but the live channel would repeat it).
    await expect.poll(unpublished, viaBus).toBe(0);
    const killed = [await outboxPublisher('exchange'), await outboxPublisher('notification'), 'gateway-2'];
    const pids = killed.map((name) => app.processes!.get(name)!.pid);
    const killedAt = Date.now();
    for (const name of killed) app.processes!.get(name)!.kill('SIGKILL');
    expect(await bobSockets[0]!.closed).toBe(1006); // gone without a closing handshake
    // Bob's browser reconnects, reaching the gateway left; his session is in Redis, so it is still his.
    bobSockets.push(await openLiveSocket('bob on the first gateway, reconnected', first, bob.cookie));
    sockets.push(bobSockets[1]!);

    const confirmed = ExchangeMatch.parse(await atFirst.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie }));
    expect(confirmed).toMatchObject({ id: match.id, status: 'confirmed' });
    await arrived(anaSockets, 2);
    await arrived(bobSockets, 2);
    const convergedMs = Date.now() - killedAt;

    const forAna = MatchAccountsResponse.parse(await atFirst.json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: ana.cookie }));
    expect(forAna).toMatchObject({ isRequestor: true, myAccount: { currency: 'CLP' }, partnerAccount: { currency: 'GBP', accountNumber: '55779911' } });
    const forBob = MatchAccountsResponse.parse(await atFirst.json(`/api/exchange-matches/${match.id}/accounts`, 200, { cookie: bob.cookie }));
    expect(forBob).toMatchObject({ isRequestor: false, myAccount: { currency: 'GBP' }, partnerAccount: { currency: 'CLP', accountNumber: '987654321' } });

    const completed = ExchangeMatch.parse(await atFirst.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bob.cookie }));
    expect(completed).toMatchObject({ id: match.id, status: 'completed' });
    // Ana is told, and asked whether her pesos arrived (Bob completed first).
    await arrived(anaSockets, 4);

    // The rating service learns that the match completed through the bus.
    await vi.waitFor(async () => {
      const res = await atFirst.call('/api/ratings', { cookie: bob.cookie, body: { exchangeMatchId: match.id, toUserId: ana.id, rating: 5 } });
      expect(res.status, await res.clone().text()).toBe(201);
      Rating.parse(await res.json());
    }, viaBus);
    Rating.parse(await atFirst.json('/api/ratings', 201, { cookie: ana.cookie, body: { exchangeMatchId: match.id, toUserId: bob.id, rating: 4 } }));
    await arrived(anaSockets, 5);
    await arrived(bobSockets, 3);

    const ids = `${match.id}/${request.id}`;
    const expected = {
      ana: [`exchange_match ${request.id}`, `match_success ${ids}`, `exchange_completed ${request.id}`, `receipt_question ${request.id}`, `rating ${request.id}`],
      bob: [`exchange_confirmed ${request.id}`, `match_success ${ids}`, `rating ${request.id}`],
    };
    const received = { ana: got(anaSockets), bob: got(bobSockets) };
    const listed = {
      ana: NotificationList.parse(await atFirst.json('/api/notifications', 200, { cookie: ana.cookie })),
      bob: NotificationList.parse(await atFirst.json('/api/notifications', 200, { cookie: bob.cookie })),
    };
    const lost = (['ana', 'bob'] as const).flatMap((who) => expected[who].filter((e) => !received[who].includes(e)).map((e) => `${who}: ${e}`));
    const duplicates = (['ana', 'bob'] as const).flatMap((who) => received[who].filter((e, i) => received[who].indexOf(e) !== i).map((e) => `${who}: ${e}`));
    console.log(`scale: after SIGKILLing ${killed.join(', ')}, the instances left converged in ${convergedMs} ms; `
      + `${received.ana.length + received.bob.length} live messages, lost ${lost.length}, duplicates ${duplicates.length}`);

    expect({ lost, duplicates }).toEqual({ lost: [], duplicates: [] });
    for (const who of ['ana', 'bob'] as const) {
      expect([who, [...received[who]].sort()]).toEqual([who, [...expected[who]].sort()]);
      // The notifications listed are those announced live, one each.
      const announced = [anaSockets, bobSockets][who === 'ana' ? 0 : 1]!.flatMap((s) => s.got.flatMap(({ message }) => (message.type === 'new_notification' ? [message.notification.id] : [])));
      expect([who, listed[who].map((n) => n.id).sort()]).toEqual([who, announced.sort()]);
      expect([who, listed[who].map((n) => `${n.type} ${n.referenceId}`).sort()]).toEqual([who, expected[who].filter((e) => !e.startsWith('match_success')).sort()]);
    }
    // The runner started each killed process again, as it does after any crash.
    await vi.waitFor(() => {
      for (const [i, name] of killed.entries()) {
        expect(app.log()).toContain(`[runner] ${name} stopped (SIGKILL); restarting it in 1 s (attempt 1)`);
        expect(app.processes!.get(name)!.pid).not.toBe(pids[i]);
      }
    }, { timeout: 10_000, interval: 100 });
  }, 150_000);

  /** Events committed but not yet published, in every service's outbox. */
  async function unpublished(): Promise<number> {
    const counts = ServiceNames.map((s) => `(select count(*) from ${s}.outbox_event where published_at is null)`);
    return Number((await db.query<{ n: string }>(`select ${counts.join(' + ')} as n`)).rows[0]?.n);
  }

  /** The instance publishing a service's outbox: its lease row names the holder's process (messaging/outbox.ts). */
  async function outboxPublisher(service: 'exchange' | 'notification'): Promise<string> {
    const { rows } = await db.query<{ owner: string }>(`select owner from ${service}.relay_lease where expires_at > now()`);
    const pid = Number(rows[0]?.owner.split(':').at(-2));
    const name = [...app.processes!].find(([, child]) => child.pid === pid)?.[0];
    expect(name, `the ${service} instance holding the outbox lease`).toMatch(new RegExp(`^${service}(-2)?$`));
    return name!;
  }
});
