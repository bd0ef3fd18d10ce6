/**
 * Retries that never duplicate, end to end (distributed: PostgreSQL, Redis, the Kafka-protocol broker, a process per
 * service, through the gateway), the fault the issue found: a request committed just before a crash was answered 5xx
 * "try again", and the retry created a second request and spent plan quota twice. With an Idempotency-Key:
 * - the same request sent twice gets one stored request and the same answer, the quota spent once; another body
 *   under the key is refused (409);
 * - the exchange service SIGKILLed after its commit and before its answer: the user's retry under the key is told
 *   the request was received (409 idempotency_key_in_use: refresh), never served a second request; one is stored,
 *   and the quota is spent once.
 * The moment between the commit and the answer is held by the database: a trigger on the key's row makes the
 * service's recording of its answer wait on a lock the test holds, so the kill lands there every time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pg from 'pg';
import { ErrorBody, ExchangeLimits, ExchangeRequest, ExchangeRequestList, IdempotencyRefusals } from '@puente/contracts';
import { appClient, describeWithInfra, type AppClient, type SignedIn } from '@puente/testkit';
import { startDistributedApp, type RunningTestApp, showOutputOnFailure } from './testing/running-app.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders } from './testing/traders.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'IDEMPOTENT-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, SESSION_SECRET: randomBytes(32).toString('base64url'),
  // A dead instance's outbox lease and group membership lapse within seconds (the defaults suit production).
  OUTBOX_LEASE_MS: '2000', KAFKA_SESSION_TIMEOUT_MS: '3000', KAFKA_FETCH_MAX_WAIT_MS: '100', OUTBOX_POLL_MS: '100',
};
/** The advisory lock the trigger waits on while the test holds it. */
const HOLD = 'idempotency-faults-hold';

describeWithInfra(['postgres', 'redis', 'kafka'], 'faults: a retry under the same Idempotency-Key', () => {
  let app: RunningTestApp;
  let db: pg.Client;
  let client: AppClient;
  let ana: SignedIn;
  let bob: SignedIn;

  beforeAll(async () => {
    app = await startDistributedApp('idempotency-faults-e2e', appEnv, { faults: true });
    client = appClient(app.url);
    db = new pg.Client({ connectionString: app.databaseUrl });
    await db.connect();
    ana = await client.signUp(traders.ana, ADMIN.code);
    bob = await client.signUp(traders.bob, ADMIN.code);
    await addBankAccounts(client, ana, bankAccountsOf.ana);
    await addBankAccounts(client, bob, bankAccountsOf.bob);
    // Once the exchange service knows their accounts, each has posted one request (the plan allows two a day).
    await onceAccountsKnown(client, '/api/exchange-requests', ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 10, exchangeRate: 1275 });
    await onceAccountsKnown(client, '/api/exchange-requests', bob, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 10, exchangeRate: 1275 });
  }, 240_000);
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  }, 60_000);
  showOutputOnFailure(() => app);

  const post = (who: SignedIn, key: string, body: object) =>
    client.call('/api/exchange-requests', { cookie: who.cookie, body, headers: { 'idempotency-key': key } });
  const usedToday = async (who: SignedIn) => ExchangeLimits.parse(await client.json('/api/exchange-requests/limits', 200, { cookie: who.cookie })).usedToday;
  const stored = async (who: SignedIn, amount: number) => Number((await db.query<{ n: string }>(
    'select count(*) as n from exchange.exchange_request where user_id = $1 and amount = $2', [who.id, amount])).rows[0]?.n);

  it('the same request twice under one key: one request, the same answer, the quota spent once; another body 409', async () => {
    const key = randomUUID();
    const asked = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 150, exchangeRate: 1275 };
    const quota = await usedToday(ana);
    const first = await post(ana, key, asked);
    const again = await post(ana, key, asked);
    expect(first.status, await first.clone().text()).toBe(201);
    expect([again.status, again.headers.get('idempotent-replayed'), ExchangeRequest.parse(await again.json())])
      .toEqual([201, 'true', ExchangeRequest.parse(await first.json())]);
    const other = await post(ana, key, { ...asked, amount: 160 });
    expect([other.status, ErrorBody.parse(await other.json()).code]).toEqual([409, IdempotencyRefusals.reused.code]);
    expect([await stored(ana, 150), await stored(ana, 160), await usedToday(ana) - quota]).toEqual([1, 0, 1]);
    console.log('idempotency: a request sent twice under one key stored once, answered the same twice (the second replayed), quota spent once');
  }, 60_000);

  it('the exchange service SIGKILLed between its commit and its answer: the retry under the key creates nothing', async () => {
    const key = randomUUID();
    const asked = { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 170, exchangeRate: 1275 };
    const quota = await usedToday(bob);
    const holder = new pg.Client({ connectionString: app.databaseUrl });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(hashtext($1))', [HOLD]);
      await db.query(`create function exchange.hold_answer() returns trigger language plpgsql as $$
        begin perform pg_advisory_xact_lock(hashtext('${HOLD}')); return new; end $$`);
      await db.query('create trigger hold_answer before update on exchange.idempotency_key for each row execute function exchange.hold_answer()');

      const sentAt = Date.now();
      const answered = post(bob, key, asked);
      // Committed (the request and its key), the answer not recorded nor sent: the service waits on the test's lock.
      await expect.poll(async () => Number((await db.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event = 'advisory' and query like 'update%idempotency_key%'`)).rows[0]?.n),
      { timeout: 20_000, interval: 50 }).toBe(1);
      const exchange = app.processes!.get('exchange')!;
      exchange.kill('SIGKILL');
      const lost = await answered;
      console.log(`idempotency: exchange killed ${Date.now() - sentAt} ms after the request was sent; the user saw ${lost.status}`);
      expect(lost.status).toBeGreaterThanOrEqual(500);
      // The dead process's statement goes with it, as PostgreSQL ends a backend whose client is gone.
      await db.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'update%idempotency_key%'`);
      await db.query('drop trigger hold_answer on exchange.idempotency_key');
      await db.query('drop function exchange.hold_answer()');
      await vi.waitFor(async () => {
        expect(app.processes!.get('exchange')!.pid).not.toBe(exchange.pid);
        expect((await fetch(`${app.serviceUrls!.exchange}/ready`, { signal: AbortSignal.timeout(2_000) })).status).toBe(200);
      }, { timeout: 30_000, interval: 100 });
    } finally {
      await holder.end();
    }

    const retry = await post(bob, key, asked);
    expect([retry.status, ErrorBody.parse(await retry.json())]).toEqual([409, { code: IdempotencyRefusals.inUse.code, message: IdempotencyRefusals.inUse.message }]);
    // What the user sees on refreshing: the one request.
    const mine = ExchangeRequestList.parse(await client.json('/api/exchange-requests/user', 200, { cookie: bob.cookie }));
    expect([mine.filter((r) => r.amount === 170).length, await stored(bob, 170), await usedToday(bob) - quota]).toEqual([1, 1, 1]);
    console.log('idempotency: after a kill between commit and answer, the retry under the key was refused as received; one request stored, quota spent once');
  }, 120_000);
});
