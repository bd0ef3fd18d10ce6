/**
 * The signed-in devices: GET /api/auth/sessions lists the caller's sessions (and nobody else's), DELETE
 * /api/auth/sessions/{id} ends one of them at once, on every gateway sharing the store; a password change leaves
 * only the current one. Time is Date's alone, set by the tests, so every answer is compared whole.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { Redis } from 'ioredis';
import { ErrorBody, SignedInSessionList, type SignedInSession } from '@puente/contracts';
import { describeWithInfra, startRedis, useFreshDatabase, type RedisServer } from '@puente/testkit';
import { publicSessionId } from './sessions/routes.ts';
import { PostgresSessionStore } from './sessions/postgres-store.ts';
import { RedisSessionStore } from './sessions/redis-store.ts';
import { MemorySessionStore } from './sessions/store.ts';
import { buildTestGateway, OWN_ORIGIN, PASSWORD, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ON_ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const SAFARI_ON_MACOS = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const START = new Date('2026-11-20T09:00:00.000Z');

interface Device { userAgent: string; ip: string }
const laptop: Device = { userAgent: FIREFOX_ON_WINDOWS, ip: '203.0.113.77' };
const phone: Device = { userAgent: CHROME_ON_ANDROID, ip: '2001:db8:85a3:1234::7' };
const office: Device = { userAgent: SAFARI_ON_MACOS, ip: '198.51.100.23' };

const at = (ms: number) => new Date(START.getTime() + ms).toISOString();
/** The list's id of the session a cookie holds (the cookie is `puente_session=<id>.<signature>`). */
const listedId = (cookie: string) => {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return publicSessionId(value.slice(0, value.lastIndexOf('.')));
};

async function loginFrom(gateway: FastifyInstance, email: string, device: Device): Promise<string> {
  const res = await gateway.inject({
    method: 'POST', url: '/api/auth/login', remoteAddress: device.ip,
    headers: { origin: OWN_ORIGIN, 'content-type': 'application/json', 'user-agent': device.userAgent }, payload: { email, password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return sessionCookieOf(res)!;
}
const use = (gateway: FastifyInstance, method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string | undefined, device: Device = laptop) =>
  gateway.inject({ method, url, remoteAddress: device.ip, headers: { origin: OWN_ORIGIN, 'user-agent': device.userAgent, ...(cookie ? { cookie } : {}) } });
async function sessionsOf(gateway: FastifyInstance, cookie: string, device: Device = laptop): Promise<SignedInSession[]> {
  const res = await use(gateway, 'GET', '/api/auth/sessions', cookie, device);
  expect(res.statusCode, res.body).toBe(200);
  return SignedInSessionList.parse(res.json());
}
const revoke = (gateway: FastifyInstance, cookie: string | undefined, id: string, device: Device = laptop) =>
  use(gateway, 'DELETE', `/api/auth/sessions/${id}`, cookie, device);
const whoAmI = (gateway: FastifyInstance, cookie: string) => use(gateway, 'GET', '/api/auth/user', cookie);
const errorOf = (res: LightMyRequestResponse) => ErrorBody.parse(res.json());

describe('signed-in devices (one store, two gateways)', () => {
  const store = new MemorySessionStore();
  let identity: FakeUpstream;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    identity = await startFakeService('identity');
    const options = { serviceUrls: { identity: identity.url }, sessionStore: store };
    [one, two] = await Promise.all([buildTestGateway(options), buildTestGateway(options)]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await store.close();
    await identity?.close();
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
  });
  afterEach(() => { vi.useRealTimers(); });

  it("lists the caller's own sessions, this one first, with browser, OS and network, and never the session itself", async () => {
    const onLaptop = await loginFrom(one, 'ana@example.com', laptop);
    vi.setSystemTime(new Date(START.getTime() + 5_000));
    const onPhone = await loginFrom(two, 'ana@example.com', phone);
    const bens = await loginFrom(one, 'ben@example.com', office);

    const listed = await sessionsOf(one, onLaptop);
    expect(listed).toEqual([
      { id: listedId(onLaptop), createdAt: at(0), lastSeenAt: at(0), browser: 'Firefox', os: 'Windows', network: '203.0.113.0/24', current: true },
      { id: listedId(onPhone), createdAt: at(5_000), lastSeenAt: at(5_000), browser: 'Chrome', os: 'Android', network: '2001:db8:85a3::/48', current: false },
    ]);
    expect(JSON.stringify(listed)).not.toContain(decodeURIComponent(onLaptop.split('=')[1]!).split('.')[0]);
    // The other gateway, asked from the phone, says the same with the phone as this device.
    expect((await sessionsOf(two, onPhone, phone)).map((s) => [s.id, s.current])).toEqual([[listedId(onPhone), true], [listedId(onLaptop), false]]);
    expect(await sessionsOf(one, bens, office)).toEqual([
      { id: listedId(bens), createdAt: at(5_000), lastSeenAt: at(5_000), browser: 'Safari', os: 'macOS', network: '198.51.100.0/24', current: true },
    ]);
  });

  it('records when and where a session was last used, at most once a minute', async () => {
    const cookie = await loginFrom(one, 'ana@example.com', laptop);
    const lastSeen = async () => (await sessionsOf(one, cookie)).find((s) => s.current)!;
    vi.setSystemTime(new Date(START.getTime() + 30_000));
    expect((await whoAmI(one, cookie)).statusCode).toBe(200);
    expect(await lastSeen()).toEqual(expect.objectContaining({ lastSeenAt: at(0), network: '203.0.113.0/24' }));
    // A minute on, from the office network: written once more, and the list says so.
    vi.setSystemTime(new Date(START.getTime() + 61_000));
    expect((await use(one, 'GET', '/api/auth/user', cookie, { ...laptop, ip: '198.51.100.23' })).statusCode).toBe(200);
    expect(await lastSeen()).toEqual({
      id: listedId(cookie), createdAt: at(0), lastSeenAt: at(61_000), browser: 'Firefox', os: 'Windows', network: '198.51.100.0/24', current: true,
    });
  });

  it('revokes another session of the caller at once, on every gateway; the list then leaves it out', async () => {
    const here = await loginFrom(one, 'ben@example.com', office);
    const there = await loginFrom(two, 'ben@example.com', phone);
    expect((await whoAmI(two, there)).statusCode).toBe(200); // remembered by the second gateway

    const res = await revoke(one, here, listedId(there));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.cookies).toEqual([]); // the caller's own cookie stays as it is
    expect((await whoAmI(two, there)).statusCode).toBe(401);
    expect((await whoAmI(one, there)).statusCode).toBe(401);
    expect((await whoAmI(one, here)).statusCode).toBe(200);
    expect((await sessionsOf(one, here, office)).map((s) => s.id)).not.toContain(listedId(there));
    expect(errorOf(await revoke(one, here, listedId(there)))).toEqual({ message: 'Session not found', code: 'not_found' });
  });

  it("answers another user's session as unknown (404) and leaves it working", async () => {
    const anas = await loginFrom(one, 'ana@example.com', laptop);
    const bens = await loginFrom(one, 'ben@example.com', office);
    const res = await revoke(one, bens, listedId(anas));
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toEqual({ message: 'Session not found', code: 'not_found' });
    expect((await whoAmI(two, anas)).statusCode).toBe(200);
    expect((await sessionsOf(one, bens, office)).map((s) => s.id)).not.toContain(listedId(anas));
  });

  it('revoking the current session signs this browser out', async () => {
    const cookie = await loginFrom(one, 'ana@example.com', laptop);
    const res = await revoke(two, cookie, listedId(cookie));
    expect(res.statusCode).toBe(204);
    expect(res.cookies.find((c) => c.name === 'puente_session')?.value).toBe('');
    expect((await whoAmI(one, cookie)).statusCode).toBe(401);
  });

  it('refuses a visitor, a malformed id and a cross-site revoke', async () => {
    const cookie = await loginFrom(one, 'ana@example.com', laptop);
    const id = listedId(cookie);
    for (const res of [await use(one, 'GET', '/api/auth/sessions', undefined), await revoke(one, undefined, id)]) {
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toEqual({ message: 'Authentication required', code: 'unauthorized' });
    }
    const malformed = await revoke(one, cookie, 'not-a-session');
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed)).toEqual({ message: 'Invalid session ID', code: 'validation_failed', errors: [{ field: 'id', message: 'Invalid session ID' }] });
    const crossSite = await one.inject({ method: 'DELETE', url: `/api/auth/sessions/${id}`, headers: { cookie, origin: 'https://evil.example' } });
    expect(crossSite.statusCode).toBe(403);
    expect((await whoAmI(one, cookie)).statusCode).toBe(200);
  });

  it('a password change leaves only the current session in the list', async () => {
    const here = await loginFrom(one, 'ben@example.com', office);
    await loginFrom(two, 'ben@example.com', phone);
    expect((await sessionsOf(one, here, office)).length).toBeGreaterThan(1);
    expect((await use(one, 'POST', '/api/auth/change-password', here, office)).statusCode).toBe(200);
    expect(await sessionsOf(two, here, office)).toEqual([
      { id: listedId(here), createdAt: at(0), lastSeenAt: at(0), browser: 'Safari', os: 'macOS', network: '198.51.100.0/24', current: true },
    ]);
  });
});

describeWithInfra(['postgres'], 'signed-in devices kept in PostgreSQL (embedded mode)', () => {
  const db = useFreshDatabase('gateway_devices');
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await pool.query('CREATE SCHEMA IF NOT EXISTS gateway');
  });
  afterAll(async () => { await pool?.end(); });

  it('keeps each session\'s use across a restart, and never brings back a session that ended', async () => {
    const record = { userId: 1, role: 'user' as const, expiresAt: Date.now() + 3_600_000 };
    const first = await PostgresSessionStore.open(pool, 'gateway');
    await first.save('kept', record);
    await first.save('ended', record);
    await first.recordUse('kept', record, { at: 1_000, userAgent: FIREFOX_ON_WINDOWS, ip: '203.0.113.77' });
    await first.recordUse('kept', record, { at: 61_000, userAgent: CHROME_ON_ANDROID, ip: '198.51.100.23' });
    await first.delete('ended');
    await first.recordUse('ended', record, { at: 62_000, userAgent: SAFARI_ON_MACOS, ip: '198.51.100.23' });
    await first.close();

    const reopened = await PostgresSessionStore.open(pool, 'gateway');
    try {
      expect(await reopened.userSessions(1)).toEqual([{
        id: 'kept', record, use: { createdAt: 1_000, lastSeenAt: 61_000, userAgent: CHROME_ON_ANDROID, ip: '198.51.100.23' },
      }]);
      expect(await reopened.get('ended')).toBeUndefined();
    } finally {
      await reopened.close();
    }
  });

  it('writes the uses of a crowd arriving at once in one statement, each kept across a restart', async () => {
    const record = { userId: 2, role: 'user' as const, expiresAt: Date.now() + 3_600_000 };
    const ids = Array.from({ length: 200 }, (_, n) => `crowd-${n}`);
    const store = await PostgresSessionStore.open(pool, 'gateway');
    for (const id of ids) await store.save(id, record);
    const statements: string[] = [];
    const original = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    const query = vi.spyOn(pool, 'query').mockImplementation(((...args: unknown[]) => {
      statements.push(String(args[0]));
      return original(...args);
    }) as never);
    try {
      await Promise.all(ids.map((id, n) => store.recordUse(id, record, { at: 5_000 + n, userAgent: FIREFOX_ON_WINDOWS, ip: '203.0.113.77' })));
    } finally {
      query.mockRestore();
      await store.close();
    }
    expect(statements.filter((s) => s.trimStart().startsWith('UPDATE'))).toHaveLength(1);

    const reopened = await PostgresSessionStore.open(pool, 'gateway');
    try {
      expect((await reopened.userSessions(2)).map((s) => [s.id, s.use?.lastSeenAt]).sort())
        .toEqual(ids.map((id, n) => [id, 5_000 + n]).sort());
    } finally {
      await reopened.close();
    }
  });
});

describeWithInfra(['redis'], 'signed-in devices on two gateways sharing Redis', () => {
  let redis: RedisServer;
  let identity: FakeUpstream;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    [redis, identity] = await Promise.all([startRedis(), startFakeService('identity')]);
    const options = { serviceUrls: { identity: identity.url }, redisUrl: redis.url };
    [one, two] = await Promise.all([buildTestGateway(options), buildTestGateway(options)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await identity?.close();
    await redis?.stop();
  });

  it('lists the sessions made on either instance, and a revoke on one ends the session on the other', async () => {
    const here = await loginFrom(one, 'ben@example.com', office);
    const there = await loginFrom(two, 'ben@example.com', phone);
    expect((await whoAmI(two, there)).statusCode).toBe(200);
    const listed = await sessionsOf(two, here, office);
    expect(listed.map(({ id, browser, os, network, current }) => ({ id, browser, os, network, current }))).toEqual([
      { id: listedId(here), browser: 'Safari', os: 'macOS', network: '198.51.100.0/24', current: true },
      { id: listedId(there), browser: 'Chrome', os: 'Android', network: '2001:db8:85a3::/48', current: false },
    ]);
    expect((await revoke(one, here, listedId(there))).statusCode).toBe(204);
    // The other instance remembered the session: it forgets it when Redis announces the revocation.
    await expect.poll(async () => (await whoAmI(two, there)).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
    expect((await sessionsOf(two, here, office)).map((s) => s.id)).toEqual([listedId(here)]);
  });

  it('deletes a session\'s use with the session, whether revoked alone or with the user\'s others', async () => {
    const client = new Redis(redis.url);
    try {
      const store = new RedisSessionStore(client);
      const record = { userId: 7, role: 'user' as const, expiresAt: Date.now() + 3_600_000 };
      for (const id of ['alone', 'kept', 'other']) {
        await store.save(id, record);
        await store.recordUse(id, record, { at: Date.now(), userAgent: SAFARI_ON_MACOS, ip: '198.51.100.23' });
      }
      const used = async () => {
        const ids = ['alone', 'kept', 'other'];
        const kept = await Promise.all(ids.map((id) => client.exists(`puente:gateway:session-use:${id}`)));
        return ids.filter((_, i) => kept[i] === 1);
      };
      expect(await used()).toEqual(['alone', 'kept', 'other']);
      await store.delete('alone');
      expect(await store.deleteUserSessions(7, 'kept')).toEqual(['other']);
      expect(await used()).toEqual(['kept']);
    } finally {
      client.disconnect();
    }
  });
});
