/**
 * Identity end to end, through the real gateway, identity and audit services: sign-up, verification, login, the
 * session cookie, CSRF, admin-only routes, the audit trail, logout and a replayed cookie, a forged internal token,
 * and a rate limit. Run twice: as `npm start` runs the app (one process, PGlite, in-process bus, memory sessions),
 * and distributed (every service and the gateway its own process, on PostgreSQL, Kafka and Redis).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BankAccount, CurrentUser, ErrorBody, LoginAttemptList, SignupAttemptList, SignupRequestResponse, UserDirectory,
} from '@puente/contracts';
import { describeWithInfra, type RunningApp } from '@puente/testkit';
import { startDistributedApp, startEmbeddedApp, showOutputOnFailure } from './testing/running-app.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'E2E-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  RATE_LIMIT_REFERRAL_IP: '8/1m', BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};


describe('identity, sessions and audit through the gateway (embedded)', () => {
  identityEndToEnd(() => startEmbeddedApp('identity-e2e', appEnv));
});

describeWithInfra(['postgres', 'redis', 'kafka'], 'identity, sessions and audit through the gateway (distributed)', () => {
  identityEndToEnd(() => startDistributedApp('identity-e2e', appEnv));
});

function identityEndToEnd(start: () => Promise<RunningApp>): void {
  let app: RunningApp;
  beforeAll(async () => { app = await start(); }, 120_000);
  afterAll(async () => { await app?.stop(); }, 60_000);
  showOutputOnFailure(() => app);

  /** A browser-like call: same-origin Origin header on writes, the session cookie when given. */
  const call = (path: string, init: { method?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {}) => {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { ...init.headers };
    if (method !== 'GET') headers.origin ??= app.url.replace('localhost', '127.0.0.1');
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.cookie) headers.cookie = init.cookie;
    return fetch(`${app.url.replace('localhost', '127.0.0.1')}${path}`, { method, headers, redirect: 'manual', ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
  };
  const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('puente_session='))?.split(';')[0];
  const login = async (email: string, password: string) => {
    const res = await call('/api/auth/login', { body: { email, password } });
    return { res, cookie: sessionCookie(res) };
  };
  /**
   * For what reaches identity or audit through the bus. On Kafka (distributed) a service notices another's topic
   * only once it exists and its consumer refreshes metadata (every 10 s) and rebalances.
   */
  const viaBus = { timeout: 60_000, interval: 100 };

  let userCookie: string;

  it('signs a visitor up with a referral code, verifies the email and logs in', async () => {
    expect((await call('/api/auth/user')).status).toBe(401);

    const badCode = await call('/api/signup/request', { body: { email: 'ana@puente.test', password: 'password1', firstName: 'Ana', lastName: 'Diaz', referralCode: 'NOPE-NOPE' } });
    expect(badCode.status).toBe(400);

    const signup = await call('/api/signup/request', { body: { email: 'Ana@Puente.test', password: 'password1', firstName: 'Ana', lastName: 'Diaz', referralCode: ADMIN.code } });
    expect(signup.status).toBe(201);
    const { verificationToken } = SignupRequestResponse.parse(await signup.json());
    expect(verificationToken).toBeTruthy();

    expect((await login('ana@puente.test', 'password1')).res.status).toBe(403); // not verified yet
    expect((await call('/api/signup/verify', { body: { token: verificationToken } })).status).toBe(200);
    expect((await call('/api/signup/verify', { body: { token: verificationToken } })).status).toBe(400); // single use

    const wrong = await login('ana@puente.test', 'password2');
    expect(wrong.res.status).toBe(401);
    expect(ErrorBody.parse(await wrong.res.json()).message).toBe('Invalid email or password');

    const ok = await login('ana@puente.test', 'password1');
    expect(ok.res.status).toBe(200);
    expect(ok.cookie).toBeTruthy();
    const setCookie = ok.res.headers.getSetCookie().join(';');
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    userCookie = ok.cookie!;

    const me = await call('/api/auth/user', { cookie: userCookie });
    expect(me.status).toBe(200);
    expect(CurrentUser.parse(await me.json())).toEqual({
      id: expect.any(Number), createdAt: expect.any(String), profileImageUrl: null,
      firstName: 'Ana', lastName: 'Diaz', email: 'ana@puente.test', emailVerified: true, role: 'user',
      phoneVerified: false, idVerified: false, bankVerified: false,
      trustRating: null, ratingCount: 0, transactionCount: 0, hasBothAccounts: false, subscriptionTier: 'free',
      trustScore: 5, trustLevel: 'Unverified', language: 'en',
    });
  });

  it('keeps hasBothAccounts on the current user in step with the bank accounts the user adds and deletes', async () => {
    const hasBothAccounts = async () => CurrentUser.parse(await (await call('/api/auth/user', { cookie: userCookie })).json()).hasBothAccounts;
    const gbp = await call('/api/bank-accounts', { cookie: userCookie, body: {
      currency: 'GBP', bankName: 'Monzo', accountNumber: '31926819', accountHolder: 'Ana Diaz', sortCode: '04-00-04',
    } });
    expect(gbp.status).toBe(201);
    const clp = await call('/api/bank-accounts', { cookie: userCookie, body: {
      currency: 'CLP', bankName: 'BancoEstado', accountNumber: '987654321', accountHolder: 'Ana Diaz',
      rut: '12.345.678-5', accountType: 'vista', email: 'ana@example.cl',
    } });
    expect(clp.status).toBe(201);
    await expect.poll(hasBothAccounts, viaBus).toBe(true);
    const { id } = BankAccount.parse(await gbp.json());
    expect((await call(`/api/bank-accounts/${id}`, { method: 'DELETE', cookie: userCookie })).status).toBe(204);
    await expect.poll(hasBothAccounts, viaBus).toBe(false);
  }, 150_000); // two waits on the bus

  it('refuses a state-changing request that does not come from the app', async () => {
    const res = await call('/api/auth/user', { method: 'PATCH', body: { firstName: 'Eve' }, cookie: userCookie, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    const renamed = await call('/api/auth/user', { method: 'PATCH', body: { firstName: 'Anita' }, cookie: userCookie });
    expect(renamed.status).toBe(200);
    expect(CurrentUser.parse(await renamed.json()).firstName).toBe('Anita');
  });

  it('keeps /api/admin/* to admins, but the directory open to all without emails', async () => {
    for (const path of ['/api/admin/login-attempts', '/api/admin/signup-attempts', '/api/admin/login-failures', '/api/admin/signup-failures', '/api/admin/verification-requests']) {
      expect({ path, visitor: (await call(path)).status, user: (await call(path, { cookie: userCookie })).status })
        .toEqual({ path, visitor: 401, user: 403 });
    }
    for (const cookie of [undefined, userCookie]) {
      const directory = await call('/api/admin/users', cookie ? { cookie } : {});
      expect(directory.status).toBe(200);
      const users = UserDirectory.parse(await directory.json());
      expect(users.map((u) => u.firstName).sort()).toEqual(['Anita', 'Puente']);
      expect(users.filter((u) => 'email' in u)).toEqual([]);
    }
  });

  it('shows the admin every sign-up and login attempt, filtered by email', async () => {
    const { cookie: adminCookie } = await login(ADMIN.email, ADMIN.password);
    expect(adminCookie).toBeTruthy();
    const logins = await vi.waitFor(async () => {
      const rows = LoginAttemptList.parse(await (await call('/api/admin/login-attempts?email=ANA@puente.test', { cookie: adminCookie! })).json());
      expect(rows.map((r) => r.status)).toEqual(['success', 'failed', 'failed']); // newest first
      return rows;
    }, viaBus);
    expect(logins.every((r) => r.email.toLowerCase() === 'ana@puente.test')).toBe(true);
    await vi.waitFor(async () => {
      const signups = SignupAttemptList.parse(await (await call('/api/admin/signup-attempts', { cookie: adminCookie! })).json());
      expect(signups.map((r) => [r.step, r.status])).toEqual([['verify', 'failed'], ['verify', 'completed'], ['request', 'pending'], ['request', 'failed']]);
    }, viaBus);
    const directory = UserDirectory.parse(await (await call('/api/admin/users', { cookie: adminCookie! })).json());
    expect(directory.map((u) => ('email' in u ? u.email : undefined)).sort()).toEqual(['admin@puente.test', 'ana@puente.test']);
  }, 150_000); // two waits on the bus

  it('ends the session on logout: the old cookie, replayed, no longer works', async () => {
    expect((await call('/api/auth/logout', { method: 'POST', cookie: userCookie })).status).toBe(200);
    expect((await call('/api/auth/user', { cookie: userCookie })).status).toBe(401);
  });

  it('ignores an internal identity token sent from outside', async () => {
    const res = await call('/api/auth/user', { headers: { 'x-internal-token': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyOjEifQ.forged' } });
    expect(res.status).toBe(401);
  });

  it('rate-limits referral checks per IP with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 12 && !limited; i++) {
      const res = await call(`/api/auth/verify-referral/${ADMIN.code}`);
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ErrorBody.parse(await limited!.json()).message).toMatch(/try again/i);
  });

  it('lets 5 of 8 wrong passwords sent at once through, and shows the admin every one, the refused and the over-long too', async () => {
    const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => login('guess@puente.test', `guess ${i}`)));
    expect(guesses.map((g) => g.res.status).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const long = `${'a'.repeat(288)}@puente.test`; // 300 characters: more than the outbox's aggregate id holds
    expect((await login(long, 'whatever')).res.status).toBe(400);

    const { cookie: adminCookie } = await login(ADMIN.email, ADMIN.password);
    await vi.waitFor(async () => {
      const attempts = LoginAttemptList.parse(await (await call('/api/admin/login-attempts?limit=500', { cookie: adminCookie! })).json());
      const guessed = attempts.filter((r) => r.email === 'guess@puente.test');
      expect(guessed.map((r) => `${r.status} ${r.failureReason}`).sort()).toEqual([
        ...Array(5).fill('failed invalid_credentials'), ...Array(3).fill('failed rate_limited'),
      ]);
      expect(attempts.filter((r) => r.inputAltered)).toEqual([expect.objectContaining({
        email: 'a'.repeat(254), status: 'failed', failureReason: 'validation', inputAltered: true,
      })]);
    }, viaBus);
  }, 150_000);
}
