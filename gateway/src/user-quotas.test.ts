/**
 * A signed-in user's quotas on the calls that write for others to read, with the production defaults: chat messages
 * (30 a minute), attachments (20 a day per match, each a chat message too), disputes and support requests (5 a day
 * each). The n+1-th call is 429 with Retry-After and the error body, before any service sees it; other users, and
 * the same user's other matches, are unaffected; a call a fault ended gives its point back. Run on the three stores
 * counters live in: memory (tests), Redis (distributed) and PostgreSQL (embedded mode's).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { describeWithInfra, startPostgres, startRedis, type PostgresServer, type RedisServer } from '@puente/testkit';
import { MemorySessionStore } from './sessions/store.ts';
import { sessionCookieHeader } from './sessions/sessions.ts';
import { buildTestGateway, OWN_ORIGIN, sessionSecret, startFakeService, type FakeUpstream } from './test-helpers.ts';

const DAY_S = 86_400;

interface Store { redisUrl?: string; databaseUrl?: string; stop(): Promise<void> }

function suite(store: () => Promise<Store>) {
  let infra: Store;
  let exchange: FakeUpstream;
  let subscription: FastifyInstance;
  let gateway: FastifyInstance;
  const sessions = new MemorySessionStore();
  /** The support requests the subscription service received. */
  let supportRequests = 0;

  beforeAll(async () => {
    infra = await store();
    exchange = await startFakeService('exchange');
    // Answers a support request with the status the test asks for (x-test-status), 201 by default.
    subscription = Fastify();
    subscription.post('/support-requests', async (request, reply) => {
      supportRequests++;
      return reply.status(Number(request.headers['x-test-status'] ?? 201)).send({ message: 'answered' });
    });
    await subscription.listen({ host: '127.0.0.1', port: 0 });
    gateway = await buildTestGateway({
      serviceUrls: { exchange: exchange.url, subscription: `http://127.0.0.1:${(subscription.server.address() as { port: number }).port}` },
      sessionStore: sessions,
      ...(infra.redisUrl ? { redisUrl: infra.redisUrl } : {}), ...(infra.databaseUrl ? { databaseUrl: infra.databaseUrl } : {}),
    });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await exchange?.close();
    await subscription?.close();
    await sessions.close();
    await infra?.stop();
  });

  let lastUserId = 100;
  /** A new user's session cookie (a session straight in the store: no login needed here). */
  async function signIn(): Promise<{ userId: number; cookie: string }> {
    const userId = ++lastUserId;
    const sessionId = randomBytes(32).toString('base64url');
    await sessions.save(sessionId, { userId, role: 'user', expiresAt: Date.now() + 3_600_000 });
    return { userId, cookie: sessionCookieHeader(sessionId, sessionSecret) };
  }

  const post = (cookie: string, url: string, headers: Record<string, string> = {}) => gateway.inject({
    method: 'POST', url, headers: { origin: OWN_ORIGIN, 'content-type': 'application/json', cookie, ...headers }, payload: { body: 'hello' },
  });
  const attach = (cookie: string, matchId: number) => gateway.inject({
    method: 'POST', url: `/api/exchange-matches/${matchId}/attachments`, payload: Buffer.alloc(2048, 0x61),
    headers: { origin: OWN_ORIGIN, 'content-type': 'multipart/form-data; boundary=x', cookie },
  });
  const statuses = (answers: LightMyRequestResponse[]) => answers.map((a) => a.statusCode);
  /** What the exchange service received from this user on this path. */
  const seenFrom = (userId: number, path: RegExp) =>
    exchange.seen.filter((s) => path.test(s.url) && (s.caller as { userId?: number }).userId === userId).length;

  /** A 429 as api-conventions words it: Retry-After within the window, and the error body. */
  function expectRefused(res: LightMyRequestResponse, message: string, windowS: number) {
    expect(res.statusCode).toBe(429);
    expect(ErrorBody.parse(res.json())).toEqual({ message, code: 'rate_limited' });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(windowS - 60);
    expect(retryAfter).toBeLessThanOrEqual(windowS);
  }

  it('takes 30 chat messages a minute from a user: of 40 sent at once, 30 reach the service and 10 get 429', async () => {
    const ana = await signIn();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(ana.cookie, `/api/exchange-matches/${1 + (i % 3)}/messages`)));
    expect(statuses(answers).filter((s) => s === 200)).toHaveLength(30);
    expect(statuses(answers).filter((s) => s === 429)).toHaveLength(10);
    expect(seenFrom(ana.userId, /^\/exchange-matches\/\d+\/messages$/)).toBe(30);
    expectRefused(answers.find((a) => a.statusCode === 429)!, 'Too many chat messages sent. Please try again in 1 minute.', 60);
    // Another user writes on, in the same chats; and Ana still reads hers.
    const ben = await signIn();
    expect((await post(ben.cookie, '/api/exchange-matches/1/messages')).statusCode).toBe(200);
    const read = await gateway.inject({ method: 'GET', url: '/api/exchange-matches/1/messages', headers: { cookie: ana.cookie } });
    expect(read.statusCode).toBe(200);
  });

  it('takes 20 attachments a day per match from a user, each a chat message too', async () => {
    const ana = await signIn();
    expect(statuses(await Promise.all(Array.from({ length: 20 }, () => attach(ana.cookie, 8))))).toEqual(Array(20).fill(200));
    expectRefused(await attach(ana.cookie, 8), 'Too many files attached to this chat. Please try again in 24 hours.', DAY_S);
    expect(seenFrom(ana.userId, /^\/exchange-matches\/8\/attachments$/)).toBe(20);
    // Her other match's chat, and the other party in this one, are not limited by it.
    expect((await attach(ana.cookie, 9)).statusCode).toBe(200);
    const ben = await signIn();
    expect((await attach(ben.cookie, 8)).statusCode).toBe(200);
    // 21 attachments went through this minute (the refused one took nothing): 9 more messages, then 429.
    const messages = await Promise.all(Array.from({ length: 10 }, () => post(ana.cookie, '/api/exchange-matches/9/messages')));
    expect(statuses(messages).filter((s) => s === 200)).toHaveLength(9);
    expectRefused(messages.find((a) => a.statusCode === 429)!, 'Too many chat messages sent. Please try again in 1 minute.', 60);
  });

  it('takes 5 disputes a day from a user', async () => {
    const ana = await signIn();
    for (let match = 1; match <= 5; match++) expect((await post(ana.cookie, `/api/exchange-matches/${match}/dispute`)).statusCode).toBe(200);
    expectRefused(await post(ana.cookie, '/api/exchange-matches/6/dispute'), 'Too many disputes opened. Please try again in 24 hours.', DAY_S);
    expect(seenFrom(ana.userId, /\/dispute$/)).toBe(5);
    const ben = await signIn();
    expect((await post(ben.cookie, '/api/exchange-matches/6/dispute')).statusCode).toBe(200);
    // Reading a dispute is not opening one.
    expect((await gateway.inject({ method: 'GET', url: '/api/exchange-matches/1/dispute', headers: { cookie: ana.cookie } })).statusCode).toBe(200);
  });

  it('takes 5 support requests a day from a user, refused ones included, but not those a fault ended', async () => {
    const ana = await signIn();
    const before = supportRequests;
    const answered = async (status: number) => (await post(ana.cookie, '/api/support-requests', { 'x-test-status': String(status) })).statusCode;
    // Two faults give their points back; a refusal (400) keeps its point, as do the successes.
    expect([await answered(500), await answered(503), await answered(400)]).toEqual([500, 503, 400]);
    for (let i = 0; i < 4; i++) expect(await answered(201)).toBe(201);
    expectRefused(await post(ana.cookie, '/api/support-requests'), 'Too many support requests sent. Please try again in 24 hours.', DAY_S);
    expect(supportRequests - before).toBe(7);
    const ben = await signIn();
    expect((await post(ben.cookie, '/api/support-requests')).statusCode).toBe(201);
  });

  it('checks the session before any quota: a visitor gets 401 and takes no point', async () => {
    const visitor = await gateway.inject({
      method: 'POST', url: '/api/support-requests', headers: { origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: {},
    });
    expect(visitor.statusCode).toBe(401);
    expect(ErrorBody.parse(visitor.json())).toEqual({ message: 'Authentication required', code: 'unauthorized' });
  });
}

describe('user quotas with counters in memory', () => {
  suite(async () => ({ stop: async () => {} }));
});

describeWithInfra(['redis'], 'user quotas with counters in Redis', () => {
  let redis: RedisServer;
  suite(async () => {
    redis = await startRedis();
    return { redisUrl: redis.url, stop: () => redis.stop() };
  });
});

describeWithInfra(['postgres'], 'user quotas with counters in PostgreSQL (the embedded mode\'s store)', () => {
  let postgres: PostgresServer;
  suite(async () => {
    postgres = await startPostgres();
    return { databaseUrl: await postgres.createDatabase('quotas'), stop: () => postgres.stop() };
  });
});
