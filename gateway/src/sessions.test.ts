import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { describeWithInfra, startRedis, startTcpProxy, type RedisServer, type TcpProxy } from '@puente/testkit';
import { CachedSessionStore } from './sessions/cached-store.ts';
import { MemorySessionStore, type SessionRecord, type SessionStore } from './sessions/store.ts';
import {
  auth, buildTestGateway, login, OWN_ORIGIN, sessionCookieOf, startFakeService, type FakeUpstream,
} from './test-helpers.ts';

const post = (gateway: FastifyInstance, url: string, cookie?: string, headers: Record<string, string> = {}) =>
  gateway.inject({ method: 'POST', url, headers: { origin: OWN_ORIGIN, ...(cookie ? { cookie } : {}), ...headers } });
const whoAmI = (gateway: FastifyInstance, cookie?: string, headers: Record<string, string> = {}) =>
  gateway.inject({ method: 'GET', url: '/api/auth/user', headers: { ...(cookie ? { cookie } : {}), ...headers } });

describe('sessions (memory store)', () => {
  let identity: FakeUpstream;
  let accounts: FakeUpstream;
  let gateway: FastifyInstance;

  beforeAll(async () => {
    [identity, accounts] = await Promise.all([startFakeService('identity'), startFakeService('accounts')]);
    gateway = await buildTestGateway({ serviceUrls: { identity: identity.url, accounts: accounts.url } });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([identity?.close(), accounts?.close()]);
  });

  it('grants a session on login: an HttpOnly, SameSite=Lax cookie, and the action header never reaches the browser', async () => {
    const res = await login(gateway, 'Ana@Example.com ');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-session-action']).toBeUndefined();
    const cookie = res.cookies.find((c) => c.name === 'puente_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeUndefined(); // plain HTTP
    expect(cookie.expires!.getTime() - Date.now()).toBeGreaterThan(167 * 3_600_000);
  });

  it('sends the caller upstream as a signed internal token, and no caller without a session', async () => {
    const cookie = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    const me = await whoAmI(gateway, cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ kind: 'user', userId: 2, role: 'admin', sessionId: expect.any(String) });
    expect((await whoAmI(gateway)).statusCode).toBe(401);
  });

  it('never forwards the session cookie, but does forward other cookies', async () => {
    const cookie = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    const res = await gateway.inject({ method: 'GET', url: '/api/bank-accounts', headers: { cookie: `theme=dark; ${cookie}; lang=es` } });
    const seen = res.json() as { headers: Record<string, string>; caller: { userId: number } };
    expect(seen.headers.cookie).toBe('theme=dark; lang=es');
    expect(seen.caller).toMatchObject({ userId: 1 });
    const alone = await gateway.inject({ method: 'GET', url: '/api/bank-accounts', headers: { cookie } });
    expect((alone.json() as { headers: Record<string, string> }).headers.cookie).toBeUndefined();
  });

  it('ignores a forged internal token, client IP and session action sent from outside', async () => {
    // Even a token signed with the gateway's real key: only the gateway speaks for the caller.
    const forged = await auth.sign({ kind: 'user', userId: 99, role: 'admin' }, 'identity');
    const headers = { 'x-internal-token': forged, 'x-client-ip': '6.6.6.6', 'x-session-action': 'whatever' };
    expect((await whoAmI(gateway, undefined, headers)).statusCode).toBe(401);
    const last = identity.seen.at(-1)!;
    // A visitor's call carries the gateway's own token, never the one sent from outside.
    expect(last.headers['x-internal-token']).not.toBe(forged);
    expect(last.caller).toEqual({ kind: 'service', service: 'gateway' });
    expect(last.headers['x-session-action']).toBeUndefined();
    expect(last.headers['x-client-ip']).toBe('127.0.0.1');

    const cookie = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    const me = await whoAmI(gateway, cookie, headers);
    expect(me.json()).toMatchObject({ userId: 1, role: 'user' });
  });

  it('logout ends the session: the old cookie, replayed, is refused and cleared', async () => {
    const cookie = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    expect((await whoAmI(gateway, cookie)).statusCode).toBe(200);

    const out = await post(gateway, '/api/auth/logout', cookie);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: 'Logged out' });
    const cleared = out.cookies.find((c) => c.name === 'puente_session')!;
    expect(cleared.value).toBe('');
    expect(cleared.expires!.getTime()).toBeLessThanOrEqual(Date.now());

    const reached = identity.seen.length;
    const replay = await whoAmI(gateway, cookie);
    expect(replay.statusCode).toBe(401);
    expect(identity.seen.length).toBe(reached); // refused at the gateway: the route is for signed-in users
    expect(replay.cookies.find((c) => c.name === 'puente_session')?.value).toBe('');

    // Logging out without a session is fine too.
    expect((await post(gateway, '/api/auth/logout')).json()).toEqual({ message: 'Logged out' });
  });

  it('sets no cookie for a failed login', async () => {
    const res = await login(gateway, 'ana@example.com', 'wrong');
    expect(res.statusCode).toBe(401);
    expect(sessionCookieOf(res)).toBeUndefined();
  });

  it('a new login replaces the session the browser had (no fixation)', async () => {
    const first = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    const res = await gateway.inject({
      method: 'POST', url: '/api/auth/login', headers: { origin: OWN_ORIGIN, cookie: first, 'content-type': 'application/json' },
      payload: { email: 'ana@example.com', password: 'correct horse' },
    });
    const second = sessionCookieOf(res)!;
    expect(second).not.toBe(first);
    expect((await whoAmI(gateway, first)).statusCode).toBe(401);
    expect((await whoAmI(gateway, second)).statusCode).toBe(200);
  });

  it('revoke-others (password change) keeps the current session only', async () => {
    const here = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    const elsewhere = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    const bystander = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    const res = await post(gateway, '/api/auth/change-password', here);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-session-action']).toBeUndefined();
    expect(sessionCookieOf(res)).toBeUndefined(); // the current cookie is neither cleared nor replaced
    expect((await whoAmI(gateway, here)).statusCode).toBe(200);
    expect((await whoAmI(gateway, elsewhere)).statusCode).toBe(401);
    expect((await whoAmI(gateway, bystander)).statusCode).toBe(200);
  });

  it('revoke-all (password reset) ends every session of the user and clears the cookie of the request', async () => {
    const here = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    const elsewhere = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    const res = await post(gateway, '/api/auth/reset-password', here);
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'puente_session')?.value).toBe('');
    expect((await whoAmI(gateway, here)).statusCode).toBe(401);
    expect((await whoAmI(gateway, elsewhere)).statusCode).toBe(401);
  });

  it('ignores a session action with a bad signature, or from a service other than identity', async () => {
    const forged = await post(gateway, '/api/auth/forgot-password');
    expect(forged.statusCode).toBe(200);
    expect(forged.headers['x-session-action']).toBeUndefined();
    expect(sessionCookieOf(forged)).toBeUndefined();

    const other = await gateway.inject({
      method: 'POST', url: '/api/bank-accounts', headers: { origin: OWN_ORIGIN, cookie: sessionCookieOf(await login(gateway, 'ana@example.com'))!, 'x-test-grant-me': '1' },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-session-action']).toBeUndefined();
    expect(sessionCookieOf(other)).toBeUndefined();
  });

  it('treats a tampered or foreign cookie as no session', async () => {
    const cookie = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    const [name, value] = cookie.split('=') as [string, string];
    const [id, signature] = decodeURIComponent(value).split('.') as [string, string];
    expect((await whoAmI(gateway, cookie)).statusCode).toBe(200);
    // Another id with the same signature, the bare id, and an id signed with another secret are no session.
    const otherId = `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`;
    expect((await whoAmI(gateway, `${name}=${encodeURIComponent(`${otherId}.${signature}`)}`)).statusCode).toBe(401);
    expect((await whoAmI(gateway, `${name}=${id}`)).statusCode).toBe(401);
    const foreign = createHmac('sha256', 'another-secret-another-secret-another').update(id).digest('base64').replace(/=+$/, '');
    expect((await whoAmI(gateway, `${name}=${encodeURIComponent(`${id}.${foreign}`)}`)).statusCode).toBe(401);
    expect((await whoAmI(gateway, `${name}=not-a-token`)).statusCode).toBe(401);
  });

  it('marks the cookie Secure behind a trusted HTTPS proxy only', async () => {
    // One proxy in front (TRUST_PROXY=1); inject's connection comes from 127.0.0.1.
    const trusting = await buildTestGateway({ serviceUrls: { identity: identity.url }, trustProxy: 1 });
    try {
      const https = await trusting.inject({
        method: 'POST', url: '/api/auth/login',
        headers: { host: 'puente.test', origin: 'https://puente.test', 'x-forwarded-proto': 'https', 'content-type': 'application/json' },
        payload: { email: 'ana@example.com', password: 'correct horse' },
      });
      expect(https.cookies.find((c) => c.name === 'puente_session')?.secure).toBe(true);
    } finally {
      await trusting.close();
    }
    // Not trusted: X-Forwarded-Proto is ignored (and the origin must then be http://).
    const res = await gateway.inject({
      method: 'POST', url: '/api/auth/login', headers: { origin: OWN_ORIGIN, 'x-forwarded-proto': 'https', 'content-type': 'application/json' },
      payload: { email: 'ana@example.com', password: 'correct horse' },
    });
    expect(res.cookies.find((c) => c.name === 'puente_session')?.secure).toBeUndefined();
  });
});

describe('session store (memory)', () => {
  it('forgets expired sessions and deletes a user\'s sessions but one', async () => {
    const store = new MemorySessionStore();
    try {
      await store.save('a', { userId: 1, role: 'user', expiresAt: Date.now() + 60_000 });
      await store.save('b', { userId: 1, role: 'user', expiresAt: Date.now() + 60_000 });
      await store.save('old', { userId: 1, role: 'user', expiresAt: Date.now() - 1 });
      await store.save('c', { userId: 2, role: 'user', expiresAt: Date.now() + 60_000 });
      expect(await store.get('old')).toBeUndefined();
      expect((await store.deleteUserSessions(1, 'a')).sort()).toEqual(['b']);
      expect(await store.get('a')).toMatchObject({ userId: 1 });
      expect(await store.get('b')).toBeUndefined();
      expect(await store.get('c')).toMatchObject({ userId: 2 });
    } finally {
      await store.close();
    }
  });
});

describe('session store with a short memory (cached)', () => {
  const ana = { userId: 1, role: 'user' as const, expiresAt: Date.now() + 3_600_000 };
  /** A store that answers, fails or never answers, as told. */
  function flakyStore(): SessionStore & { mode: 'up' | 'down' | 'hanging'; asked: number } {
    const memory = new MemorySessionStore();
    const store = {
      mode: 'up' as 'up' | 'down' | 'hanging',
      asked: 0,
      async get(id: string) {
        store.asked++;
        if (store.mode === 'down') throw new Error('connect ECONNREFUSED');
        if (store.mode === 'hanging') return new Promise<never>(() => {});
        return memory.get(id);
      },
      save: (id: string, record: SessionRecord) => memory.save(id, record),
      delete: (id: string) => memory.delete(id),
      deleteUserSessions: (userId: number, keep?: string) => memory.deleteUserSessions(userId, keep),
      close: () => memory.close(),
    };
    return store;
  }

  it('while the store fails, serves a session read within staleMs, and fails for one it never read', async () => {
    const store = flakyStore();
    await store.save('seen', ana);
    await store.save('unseen', ana);
    const cached = new CachedSessionStore(store, { freshMs: 0, staleMs: 60_000, retryMs: 0 });
    expect(await cached.get('seen')).toEqual(ana);
    store.mode = 'down';
    expect(await cached.get('seen')).toEqual(ana);
    await expect(cached.get('unseen')).rejects.toThrow('ECONNREFUSED');
  });

  it('counts a store that does not answer within timeoutMs as unreachable', async () => {
    const store = flakyStore();
    await store.save('seen', ana);
    await store.save('unseen', ana);
    const cached = new CachedSessionStore(store, { freshMs: 0, timeoutMs: 50, retryMs: 0 });
    expect(await cached.get('seen')).toEqual(ana);
    store.mode = 'hanging';
    expect(await cached.get('seen')).toEqual(ana);
    await expect(cached.get('unseen')).rejects.toThrow('did not answer within 50 ms');
  });

  it('does not ask a store that just failed again for retryMs: the requests meanwhile are answered at once', async () => {
    const store = flakyStore();
    await store.save('seen', ana);
    const cached = new CachedSessionStore(store, { freshMs: 0, timeoutMs: 1_000, retryMs: 60_000 });
    expect(await cached.get('seen')).toEqual(ana);
    store.mode = 'hanging';
    const started = Date.now();
    expect(await cached.get('seen')).toEqual(ana); // waited for the deadline once
    const asked = store.asked;
    for (let i = 0; i < 5; i++) expect(await cached.get('seen')).toEqual(ana);
    await expect(cached.get('unseen')).rejects.toThrow('not asked again yet');
    expect(store.asked).toBe(asked);
    expect(Date.now() - started).toBeLessThan(1_900);
  });
});

describeWithInfra(['redis'], 'a gateway whose Redis is unreachable', () => {
  let redis: RedisServer;
  let proxy: TcpProxy;
  let identity: FakeUpstream;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    [redis, identity] = await Promise.all([startRedis(), startFakeService('identity')]);
    const { hostname, port } = new URL(redis.url);
    proxy = await startTcpProxy(hostname, Number(port));
    const redisUrl = `redis://${proxy.host}:${proxy.port}`;
    one = await buildTestGateway({ serviceUrls: { identity: identity.url }, redisUrl });
    two = await buildTestGateway({ serviceUrls: { identity: identity.url }, redisUrl });
  }, 60_000);
  afterAll(async () => {
    proxy?.resume();
    await Promise.all([one?.close(), two?.close()]);
    await identity?.close();
    await proxy?.close();
    await redis?.stop();
  });

  const unavailable = async (res: { statusCode: number; json(): unknown }, message: string) => {
    expect(res.statusCode).toBe(503);
    expect(ErrorBody.parse(res.json())).toEqual({ code: 'service_unavailable', message });
  };

  it('keeps a session it read lately; answers 503, never 500, where it needs Redis; all works again once it is back', async () => {
    const seen = sessionCookieOf(await login(one, 'ana@example.com'))!;
    const seenElsewhere = sessionCookieOf(await login(two, 'ben@example.com'))!;
    proxy.pause();
    try {
      expect((await whoAmI(one, seen)).json()).toMatchObject({ userId: 1 });
      const started = Date.now();
      await unavailable(await whoAmI(one, seenElsewhere), 'Sessions are not available right now. Please try again in a minute.');
      await unavailable(await login(one, 'ben@example.com'), 'Signing in is not available right now. Please try again in a minute.');
      await unavailable(await one.inject({ method: 'POST', url: '/api/signup/request', headers: { origin: OWN_ORIGIN }, payload: {} }),
        'Signing up is not available right now. Please try again in a minute.');
      await unavailable(await one.inject({ method: 'GET', url: '/api/auth/verify-referral/SOME-CODE' }),
        'Checking referral codes is not available right now. Please try again in a minute.');
      // Each answered within the store's deadline (2 s), not after the Redis client's reconnection attempts.
      expect(Date.now() - started).toBeLessThan(4 * 2_500);
    } finally {
      proxy.resume();
    }
    await expect.poll(async () => (await login(one, 'ben@example.com')).statusCode, { timeout: 10_000, interval: 100 }).toBe(200);
    expect((await whoAmI(one, seenElsewhere)).json()).toMatchObject({ userId: 2 });
  }, 30_000);
});

describeWithInfra(['redis'], 'sessions shared by two gateway instances (Redis store)', () => {
  let redis: RedisServer;
  let identity: FakeUpstream;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    [redis, identity] = await Promise.all([startRedis(), startFakeService('identity')]);
    const rateLimits = { loginFailuresPerAccountAndIp: { max: 2, windowMs: 60_000 } };
    one = await buildTestGateway({ serviceUrls: { identity: identity.url }, redisUrl: redis.url, rateLimits });
    two = await buildTestGateway({ serviceUrls: { identity: identity.url }, redisUrl: redis.url, rateLimits });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await identity?.close();
    await redis?.stop();
  });

  it('a session granted on one instance works on the other; after logout the old cookie is refused on both', async () => {
    const cookie = sessionCookieOf(await login(one, 'ana@example.com'))!;
    expect((await whoAmI(one, cookie)).json()).toMatchObject({ userId: 1 });
    expect((await whoAmI(two, cookie)).json()).toMatchObject({ userId: 1 });

    expect((await post(two, '/api/auth/logout', cookie)).statusCode).toBe(200);
    const reached = identity.seen.length;
    expect((await whoAmI(two, cookie)).statusCode).toBe(401);
    // The other instance remembered the session: it forgets it when Redis announces the logout (pub/sub, milliseconds).
    await expect.poll(async () => (await whoAmI(one, cookie)).statusCode, { timeout: 2_000, interval: 20 }).toBe(401);
    expect(identity.seen.length).toBe(reached);
  });

  it('revoke-others on one instance ends the other sessions on both', async () => {
    const here = sessionCookieOf(await login(one, 'ben@example.com'))!;
    const elsewhere = sessionCookieOf(await login(two, 'ben@example.com'))!;
    expect((await post(two, '/api/auth/change-password', here)).statusCode).toBe(200);
    for (const gateway of [one, two]) {
      expect((await whoAmI(gateway, here)).statusCode).toBe(200);
      expect((await whoAmI(gateway, elsewhere)).statusCode).toBe(401);
    }
  });

  it('counts failed logins across instances', async () => {
    const email = `nobody-${Date.now()}@example.com`;
    expect((await login(one, email, 'x')).statusCode).toBe(401);
    expect((await login(two, email, 'x')).statusCode).toBe(401);
    const refused = await login(one, email, 'x');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
