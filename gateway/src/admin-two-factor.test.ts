/**
 * Admin access and two-factor sign-in. In production (adminsNeedTwoFactor) an admin route answers an admin only in a
 * session signed in with a second factor: otherwise 403 `two_factor_required`, whose message says where to turn it
 * on, before any service is asked. The session records it from identity's grant (the login's code step, or turning
 * two-factor sign-in on, which starts a new session at once); turning it off starts this session again without it and
 * ends the others. Outside production an admin's session is enough, as before. The flag passes to the services in the
 * caller's token (`twoFactor`), and survives a restart of the embedded mode's store and travels through Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ADMIN_TWO_FACTOR_REQUIRED, ErrorBody } from '@puente/contracts';
import { createHttpApp, requireUser, SESSION_ACTION_HEADER, type SessionAction } from '@puente/platform';
import { testAuth } from '@puente/platform/testing';
import { describeWithInfra, startRedis, useFreshDatabase, type RedisServer } from '@puente/testkit';
import { Redis } from 'ioredis';
import { PostgresSessionStore } from './sessions/postgres-store.ts';
import { RedisSessionStore } from './sessions/redis-store.ts';
import { buildTestGateway, logger, OWN_ORIGIN, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

const ADMIN_ROUTE = '/api/admin/signup-attempts';
const ADMIN = { id: 2, role: 'admin' as const };

/**
 * identity as far as sessions go: a password login grants the admin a session without the second factor, the code
 * step and turning two-factor sign-in on grant one with it, turning it off grants one without it and ends the others.
 */
async function startIdentity() {
  const app = createHttpApp({ logger, auth: testAuth('identity') });
  const identity = testAuth('identity');
  const act = async (action: SessionAction) => ({ [SESSION_ACTION_HEADER]: await identity.signSessionAction(action) });
  app.post('/auth/login', async (_request, reply) => reply.headers(await act({ action: 'grant', userId: ADMIN.id, role: ADMIN.role })).send({ message: 'Login successful' }));
  app.post('/auth/login/two-factor', async (_request, reply) =>
    reply.headers(await act({ action: 'grant', userId: ADMIN.id, role: ADMIN.role, twoFactor: true })).send({ message: 'Login successful' }));
  app.post('/auth/two-factor/enable', async (request, reply) => {
    const { userId, role } = requireUser(request);
    return reply.headers(await act({ action: 'grant', userId, role, twoFactor: true })).send({ recoveryCodes: [] });
  });
  app.post('/auth/two-factor/disable', async (request, reply) => {
    const { userId, role } = requireUser(request);
    return reply.headers(await act({ action: 'grant', userId, role, endOthers: true })).send({ message: 'Two-factor sign-in is off' });
  });
  app.get('/auth/user', async (request) => ({ ...requireUser(request) }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, close: () => app.close() };
}

describe('admin routes and two-factor sign-in', () => {
  let identity: Awaited<ReturnType<typeof startIdentity>>;
  let audit: FakeUpstream;
  let production: FastifyInstance;
  let demo: FastifyInstance;

  beforeAll(async () => {
    [identity, audit] = await Promise.all([startIdentity(), startFakeService('audit')]);
    const serviceUrls = { identity: identity.url, audit: audit.url };
    [production, demo] = await Promise.all([buildTestGateway({ serviceUrls, adminsNeedTwoFactor: true }), buildTestGateway({ serviceUrls })]);
  });
  afterAll(async () => {
    await Promise.all([production?.close(), demo?.close()]);
    await Promise.all([identity?.close(), audit?.close()]);
  });

  const post = (gateway: FastifyInstance, url: string, cookie?: string) =>
    gateway.inject({ method: 'POST', url, headers: { origin: OWN_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload: {} });
  const get = (gateway: FastifyInstance, url: string, cookie: string) => gateway.inject({ method: 'GET', url, headers: { cookie } });
  const cookieOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return sessionCookieOf(res)!;
  };
  const auditSaw = () => audit.seen.filter((s) => s.url.startsWith('/admin/')).length;

  it('refuses an admin signed in with a password alone in production, saying how to turn two-factor sign-in on, before asking the service', async () => {
    const cookie = cookieOf(await post(production, '/api/auth/login'));
    const before = auditSaw();
    const refused = await get(production, ADMIN_ROUTE, cookie);
    expect(refused.statusCode).toBe(403);
    expect(ErrorBody.parse(refused.json())).toEqual({ message: ADMIN_TWO_FACTOR_REQUIRED.message, code: 'two_factor_required' });
    expect(refused.json<{ message: string }>().message).toContain('Profile → Security → Two-factor sign-in');
    expect(auditSaw()).toBe(before);
    // The rest of the app answers them as before.
    expect((await get(production, '/api/auth/user', cookie)).statusCode).toBe(200);
  });

  it('answers an admin signed in with the code step, and passes the second factor on to the service', async () => {
    const cookie = cookieOf(await post(production, '/api/auth/login/two-factor'));
    const answered = await get(production, ADMIN_ROUTE, cookie);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(audit.seen.at(-1)?.caller).toMatchObject({ kind: 'user', userId: ADMIN.id, role: 'admin', twoFactor: true });
  });

  it('takes turning it on at once: a new session with the second factor replaces the one it was turned on in', async () => {
    const withPassword = cookieOf(await post(production, '/api/auth/login'));
    expect((await get(production, ADMIN_ROUTE, withPassword)).statusCode).toBe(403);
    const withCode = cookieOf(await post(production, '/api/auth/two-factor/enable', withPassword));
    expect(withCode).not.toBe(withPassword);
    expect((await get(production, ADMIN_ROUTE, withCode)).statusCode).toBe(200);
    expect((await get(production, '/api/auth/user', withPassword)).statusCode).toBe(401);
  });

  it('takes turning it off at once: this session goes on without the second factor, and every other one ends', async () => {
    const here = cookieOf(await post(production, '/api/auth/login/two-factor'));
    const elsewhere = cookieOf(await post(production, '/api/auth/login/two-factor'));
    const after = cookieOf(await post(production, '/api/auth/two-factor/disable', here));
    expect((await get(production, '/api/auth/user', after)).statusCode).toBe(200);
    expect(ErrorBody.parse((await get(production, ADMIN_ROUTE, after)).json()).code).toBe('two_factor_required');
    for (const ended of [here, elsewhere]) expect((await get(production, '/api/auth/user', ended)).statusCode).toBe(401);
  });

  it('is unchanged outside production: an admin\'s session is enough', async () => {
    const cookie = cookieOf(await post(demo, '/api/auth/login'));
    const answered = await get(demo, ADMIN_ROUTE, cookie);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(audit.seen.at(-1)?.caller).not.toHaveProperty('twoFactor');
  });
});

const withCode = { userId: 2, role: 'admin' as const, twoFactor: true, expiresAt: Date.now() + 3_600_000 };
const withPassword = { userId: 2, role: 'admin' as const, expiresAt: Date.now() + 3_600_000 };

describeWithInfra(['postgres'], 'the second factor of a session kept in PostgreSQL (embedded mode)', () => {
  const db = useFreshDatabase('gateway_two_factor');
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await pool.query('CREATE SCHEMA IF NOT EXISTS gateway');
  });
  afterAll(async () => { await pool?.end(); });

  it('survives a restart, and a session without it stays without it', async () => {
    const first = await PostgresSessionStore.open(pool, 'gateway');
    await first.save('with-code', withCode);
    await first.save('with-password', withPassword);
    await first.close();
    const reopened = await PostgresSessionStore.open(pool, 'gateway');
    try {
      expect(await reopened.get('with-code')).toEqual(withCode);
      expect(await reopened.get('with-password')).toEqual(withPassword);
    } finally {
      await reopened.close();
    }
  });
});

describeWithInfra(['redis'], 'the second factor of a session kept in Redis (distributed mode)', () => {
  let redis: RedisServer;
  beforeAll(async () => { redis = await startRedis(); }, 60_000);
  afterAll(async () => { await redis?.stop(); });

  it('is read back as it was saved', async () => {
    const client = new Redis(redis.url);
    try {
      const store = new RedisSessionStore(client);
      await store.save('with-code', withCode);
      await store.save('with-password', withPassword);
      expect(await store.get('with-code')).toEqual(withCode);
      expect(await store.get('with-password')).toEqual(withPassword);
    } finally {
      client.disconnect();
    }
  });
});
