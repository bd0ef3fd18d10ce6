/**
 * Projections start full: users and bank accounts that existed before the exchange service first ran
 * are known to it. Identity and accounts run (their real definitions) on one bus; two users sign up and add both
 * accounts through their HTTP routes; then the exchange service starts on a bus of its own, so it never sees those
 * events, and must fill its projections from identity's and accounts' snapshot routes — once: a restart does not
 * take the snapshots again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import { AdminVerificationRequestList, BankAccount, ErrorBody, ExchangeRequest, ExchangeRequestList, PublicUser, type ServiceName } from '@puente/contracts';
import { createLogger, InProcessBus, type ServiceDefinition } from '@puente/platform';
import { testAuth, startTestService, type TestService } from '@puente/platform/testing';
import { describeWithInfra, useFreshDatabase } from '@puente/testkit';
import { serviceDefinitions } from './services.ts';

/** The gateway's side of the test keys: it reads the session actions identity signs for it. */
const gatewayAuth = testAuth('gateway');

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', referralCode: 'FILL-CODE' };
/** What the gateway forwards about the browser. */
const BROWSER = { 'x-client-ip': '203.0.113.9', 'user-agent': 'Mozilla/5.0 (Vitest)' };
const NEEDS_BOTH_ACCOUNTS = 'You need both GBP and CLP accounts to create an exchange request';

interface BackfillRow { name: string; rows: number; completed_at: Date }

describeWithInfra(['postgres'], 'the exchange service\'s projections start full', () => {
  const db = useFreshDatabase('exchange_backfill');
  const mailDir = mkdtempSync(join(tmpdir(), 'puente-backfill-mail-'));
  const logger = createLogger({ name: 'exchange-backfill-test', level: process.env.LOG_LEVEL ?? 'warn' });
  /** One address book for every service started here, filled as each one listens. */
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  const ownersBus = new InProcessBus({ logger });
  const exchangeBuses: InProcessBus[] = [];
  let definitions: Record<ServiceName, ServiceDefinition>;
  let identity: TestService;
  let accounts: TestService;
  let exchange: TestService | undefined;

  beforeAll(async () => {
    definitions = serviceDefinitions({
      ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.referralCode,
      MAIL_DIR: mailDir, BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, PROJECTION_BACKFILL: 'on',
    }, { printAdmin: () => {} });
    identity = await startTestService(definitions.identity, db.url, { bus: ownersBus, serviceUrls });
    accounts = await startTestService(definitions.accounts, db.url, { bus: ownersBus, serviceUrls });
  }, 60_000);

  afterAll(async () => {
    await exchange?.stop();
    await accounts?.stop();
    await identity?.stop();
    for (const bus of [ownersBus, ...exchangeBuses]) await bus.close();
    rmSync(mailDir, { recursive: true, force: true });
  }, 60_000);

  /**
   * The exchange service's real definition, on a bus of its own (it never sees identity's or accounts' events),
   * with the same test keys and address book; what its start enqueues is recorded.
   */
  async function startExchange(): Promise<{ svc: TestService; enqueued: string[] }> {
    const enqueued: string[] = [];
    const def = definitions.exchange;
    let spy: MockInstance | undefined;
    const observed: ServiceDefinition = {
      ...def,
      async onStart(ctx) {
        spy = vi.spyOn(ctx.jobs, 'enqueue');
        try {
          await def.onStart?.(ctx);
        } finally {
          enqueued.push(...spy.mock.calls.map((args) => String(args[0])));
          spy.mockRestore();
        }
      },
    };
    const bus = new InProcessBus({ logger });
    exchangeBuses.push(bus);
    const svc = await startTestService(observed, db.url, { bus, serviceUrls });
    return { svc, enqueued };
  }

  /** A signed-up user; `as(svc)` is their token for that service, as the gateway would send it. */
  interface User { id: number; as(svc: TestService): Promise<Record<string, string>> }

  /** Signs someone up with the admin's referral code, verifies and logs in, through identity's routes. */
  async function signUp(p: { email: string; password: string; firstName: string; lastName: string }): Promise<User> {
    const requested = await identity.app.inject({ method: 'POST', url: '/signup/request', headers: BROWSER, payload: { ...p, referralCode: ADMIN.referralCode } });
    expect(requested.statusCode, requested.body).toBe(201);
    const { verificationToken } = requested.json<{ verificationToken: string }>();
    const verified = await identity.app.inject({ method: 'POST', url: '/signup/verify', payload: { token: verificationToken } });
    expect(verified.statusCode, verified.body).toBe(200);
    const loggedIn = await identity.app.inject({ method: 'POST', url: '/auth/login', headers: BROWSER, payload: { email: p.email, password: p.password } });
    expect(loggedIn.statusCode, loggedIn.body).toBe(200);
    const action = await gatewayAuth.verifySessionAction(String(loggedIn.headers['x-session-action']));
    if (action.action !== 'grant') throw new Error(`expected a grant, got ${action.action}`);
    return { id: action.userId, as: (svc) => svc.as({ kind: 'user', userId: action.userId, role: 'user' }) };
  }

  async function addAccount(user: User, payload: object): Promise<BankAccount> {
    const res = await accounts.app.inject({ method: 'POST', url: '/bank-accounts', headers: await user.as(accounts), payload });
    expect(res.statusCode, res.body).toBe(201);
    return BankAccount.parse(res.json());
  }

  const post = async (svc: TestService, user: User, payload: object) =>
    svc.app.inject({ method: 'POST', url: '/exchange-requests', headers: await user.as(svc), payload });

  const backfillRows = async (svc: TestService) => svc.ctx.orm.em.fork().execute<BackfillRow[]>(
    'select name, rows, completed_at from exchange.projection_backfill order by name');

  let ana: User;
  let bruno: User;
  let carla: User;

  it('has users with both bank accounts before the exchange service ever ran', async () => {
    ana = await signUp({ email: 'ana@puente.test', password: 'password1', firstName: 'Ana', lastName: 'Diaz' });
    bruno = await signUp({ email: 'bruno@puente.test', password: 'password2', firstName: 'Bruno', lastName: 'Silva' });
    carla = await signUp({ email: 'carla@puente.test', password: 'password3', firstName: 'Carla', lastName: 'Soto' }); // no accounts
    await addAccount(ana, { currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Diaz', sortCode: '04-00-04' });
    await addAccount(ana, { currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Diaz', rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl' });
    await addAccount(bruno, { currency: 'GBP', bankName: 'Barclays', accountNumber: '55779911', accountHolder: 'Bruno Silva', sortCode: '20-32-53' });
    await addAccount(bruno, { currency: 'CLP', bankName: 'Banco de Chile', accountNumber: '001234567809', accountHolder: 'Bruno Silva', rut: '9.876.543-3', accountType: 'current', email: 'bruno@example.cl' });
    // An admin approves Bruno's ID: a verification made before the exchange service ran (for 'verified users only').
    const asked = await identity.app.inject({ method: 'POST', url: '/users/verification/id', headers: await bruno.as(identity), payload: {} });
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    // An ID request reaches the review with its document (a 1×1 PNG, as a browser's form sends it).
    const boundary = '----puente-backfill';
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const uploaded = await identity.app.inject({
      method: 'POST', url: '/users/verification/id/document',
      headers: { ...await bruno.as(identity), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="passport.png"\r\nContent-Type: image/png\r\n\r\n`),
        png, Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const admin = await identity.as({ kind: 'user', userId: 1, role: 'admin' });
    const pending = AdminVerificationRequestList.parse((await identity.app.inject({ method: 'GET', url: '/admin/verification-requests', headers: admin })).json());
    const brunosId = pending.find((r) => r.userId === bruno.id && r.type === 'id');
    const approved = await identity.app.inject({ method: 'POST', url: `/admin/verification-requests/${brunosId!.id}/approve`, headers: admin, payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    // Their events are out, on a bus the exchange service will never read.
    await identity.ctx.relay.flush();
    await accounts.ctx.relay.flush();
    await ownersBus.drain();
  });

  it('fills its projections from identity\'s and accounts\' snapshots at its first start', async () => {
    const started = await startExchange();
    exchange = started.svc;
    expect(started.enqueued).toContain('backfill-projections');

    const created = await vi.waitFor(async () => {
      const res = await post(exchange!, ana, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275 });
      expect(res.statusCode, res.body).toBe(201);
      return ExchangeRequest.parse(res.json());
    }, { timeout: 30_000, interval: 100 });
    /** The card as identity's snapshot gives it: a member since their account was made, no trades yet. */
    const card = async (who: User, firstName: string, lastName: string) => {
      const profile = PublicUser.parse((await identity.app.inject({ method: 'GET', url: `/users/${who.id}`, headers: await who.as(identity) })).json());
      return {
        firstName, lastName, profileImageUrl: null, trustRating: null, transactionCount: 0,
        completionRate: null, averageCompletionMinutes: null, memberSince: profile.createdAt,
      };
    };
    expect(created).toEqual({
      id: expect.any(Number), userId: ana.id, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275,
      status: 'open', createdAt: expect.any(String),
      user: await card(ana, 'Ana', 'Diaz'),
    });
    const brunos = await post(exchange, bruno, { fromCurrency: 'CLP', toCurrency: 'GBP', amount: 127500, exchangeRate: 1275 });
    expect(brunos.statusCode, brunos.body).toBe(201);
    expect(ExchangeRequest.parse(brunos.json()).user).toEqual(await card(bruno, 'Bruno', 'Silva'));
    // The snapshot says who has both accounts, not everyone: Carla has none.
    const carlas = await post(exchange, carla, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 10, exchangeRate: 1275 });
    expect(carlas.statusCode).toBe(403);
    expect(ErrorBody.parse(carlas.json()).message).toBe(NEEDS_BOTH_ACCOUNTS);

    // Carla sees both posters by name on the market.
    const market = await exchange.app.inject({ method: 'GET', url: '/exchange-requests', headers: await carla.as(exchange) });
    expect(market.statusCode).toBe(200);
    expect(ExchangeRequestList.parse(market.json()).map((r) => [r.userId, r.user.firstName, r.user.lastName]))
      .toEqual([[bruno.id, 'Bruno', 'Silva'], [ana.id, 'Ana', 'Diaz']]);

    // The verifications came with the snapshot: Bruno's ID, everyone's email.
    const verified = await exchange.ctx.orm.em.fork().execute<{ user_id: number; email_verified: boolean; id_verified: boolean }[]>(
      'select user_id, email_verified, id_verified from exchange.trader where user_id in (?, ?) order by user_id', [ana.id, bruno.id]);
    expect(verified).toEqual([
      { user_id: ana.id, email_verified: true, id_verified: false }, { user_id: bruno.id, email_verified: true, id_verified: true },
    ].sort((a, b) => a.user_id - b.user_id));

    // Each snapshot recorded as taken: the admin and three users; four bank accounts.
    await vi.waitFor(async () => expect((await backfillRows(exchange!)).map((r) => r.name)).toEqual(['account-currencies', 'users']));
    expect((await backfillRows(exchange)).map(({ name, rows }) => ({ name, rows }))).toEqual([
      { name: 'account-currencies', rows: 4 }, { name: 'users', rows: 4 },
    ]);
  }, 60_000);

  it('does not take the snapshots again when it restarts', async () => {
    const before = await backfillRows(exchange!);
    await exchange!.stop();
    exchange = undefined;
    const restarted = await startExchange();
    exchange = restarted.svc;
    expect(restarted.enqueued).not.toContain('backfill-projections');
    expect(await backfillRows(exchange)).toEqual(before);
    // What the first start filled is still known.
    const again = await post(exchange, bruno, { fromCurrency: 'GBP', toCurrency: 'CLP', amount: 50, exchangeRate: 1275 });
    expect(again.statusCode, again.body).toBe(201);
    expect(ExchangeRequest.parse(again.json()).user.firstName).toBe('Bruno');
    // Give a stray job time to run, then look again.
    await new Promise((r) => setTimeout(r, 500));
    expect(await backfillRows(exchange)).toEqual(before);
  }, 60_000);
});
