/**
 * Login and password-reset limits under attack, with the production default limits: parallel guesses, a guesser
 * locking the owner out, spraying from many IPs, the audit of refused logins. Run on both stores that share
 * counters (memory for one instance, Redis for many).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { describeWithInfra, startRedis, type RedisServer } from '@puente/testkit';
import { buildTestGateway, OWN_ORIGIN, PASSWORD, TWO_FACTOR_CODE, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

const ATTACKER = '203.0.113.7';
const OWNER = '198.51.100.20';

function suite(store: () => Promise<{ redisUrl?: string; stop(): Promise<void> }>) {
  let identity: FakeUpstream;
  let gateway: FastifyInstance;
  let infra: { stop(): Promise<void> };

  beforeAll(async () => {
    const started = await store();
    infra = started;
    identity = await startFakeService('identity');
    gateway = await buildTestGateway({ serviceUrls: { identity: identity.url }, ...(started.redisUrl ? { redisUrl: started.redisUrl } : {}) });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await identity?.close();
    await infra?.stop();
  });

  const login = (email: string, password: string, ip: string) => gateway.inject({
    method: 'POST', url: '/api/auth/login', remoteAddress: ip,
    headers: { origin: OWN_ORIGIN, 'content-type': 'application/json', 'user-agent': 'guesser/1.0' }, payload: { email, password },
  });
  const loginsSeen = () => identity.seen.filter((s) => s.url === '/auth/login').length;

  it('40 wrong passwords sent at once get 5 answers of 401 and 35 of 429; only 5 reach identity', async () => {
    const before = loginsSeen();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login('ana@example.com', `guess-${i}`, ATTACKER)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    expect(loginsSeen() - before).toBe(5);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many failed login attempts for this account. Please try again in 15 minutes.', code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
  });

  it('the owner still logs in from their own IP while the attacker\'s IP stays locked, even with the right password', async () => {
    expect((await login('ana@example.com', PASSWORD, OWNER)).statusCode).toBe(200);
    expect((await login('ana@example.com', PASSWORD, ATTACKER)).statusCode).toBe(429);
  });

  it('hands every refused login to identity for the audit log, with the IP, user agent and email', async () => {
    await vi.waitFor(() => expect(identity.seen.filter((s) => s.url === '/internal/login-refused').length).toBeGreaterThanOrEqual(36));
    const audited = identity.seen.find((s) => s.url === '/internal/login-refused')!;
    expect(audited.caller).toEqual({ kind: 'service', service: 'gateway' });
    expect(audited.headers).toMatchObject({ 'x-client-ip': ATTACKER, 'user-agent': 'guesser/1.0' });
    expect(JSON.parse(audited.body)).toEqual({ email: 'ana@example.com' });
  });

  it('stops spraying one account from many IPs at 100 failures an hour, and a success gives its point back', async () => {
    const email = 'ben@example.com';
    expect((await login(email, PASSWORD, '192.0.2.200')).statusCode).toBe(200);
    const answers = [];
    for (let batch = 0; batch < 21; batch++) {
      // 5 guesses from each of 21 addresses: 105 guesses, none over the per-IP limits.
      answers.push(...await Promise.all(Array.from({ length: 5 }, (_, i) => login(email, `spray-${batch}-${i}`, `192.0.2.${batch + 1}`))));
    }
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(100);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(5);
    expect((await login(email, PASSWORD, '192.0.2.99')).statusCode).toBe(429);
  });

  it('counts wrong two-factor codes as failed logins from their IP: 20 at once get 401, the rest 429, and a right code elsewhere gets in', async () => {
    const secondStep = (code: string, ip: string) => gateway.inject({
      method: 'POST', url: '/api/auth/login/two-factor', remoteAddress: ip,
      headers: { origin: OWN_ORIGIN, 'content-type': 'application/json', 'user-agent': 'guesser/1.0' }, payload: { challenge: 'a.b', code },
    });
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => secondStep(String(100000 + i), '203.0.113.50')));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(5);
    const refused = await secondStep(TWO_FACTOR_CODE, '203.0.113.50');
    expect(refused.statusCode).toBe(429);
    expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many failed login attempts. Please try again in 15 minutes.', code: 'rate_limited' });
    // Each refusal is in the audit log, from that IP (the step's body names no account).
    const audited = () => identity.seen.filter((s) => s.url === '/internal/login-refused' && s.headers['x-client-ip'] === '203.0.113.50');
    await vi.waitFor(() => expect(audited()).toHaveLength(6));
    expect(JSON.parse(audited()[0]!.body)).toEqual({ email: '' });
    const elsewhere = await secondStep(TWO_FACTOR_CODE, '203.0.113.51');
    expect(elsewhere.statusCode).toBe(200);
    expect(sessionCookieOf(elsewhere)).toBeTruthy();
  });

  it('counts the wrong passwords given to link a Google account as failed logins from their IP', async () => {
    const link = (password: string, ip: string) => gateway.inject({
      method: 'POST', url: '/api/auth/google/link', remoteAddress: ip,
      headers: { origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: { password },
    });
    const answers = await Promise.all(Array.from({ length: 22 }, (_, i) => link(`guess-${i}`, '203.0.113.60')));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(2);
    expect((await link(PASSWORD, '203.0.113.60')).statusCode).toBe(429);
    const elsewhere = await link(PASSWORD, '203.0.113.61');
    expect(elsewhere.statusCode).toBe(200);
    expect(sessionCookieOf(elsewhere)).toBeTruthy();
  });

  it('limits password-reset requests per email and per IP, whatever the answer', async () => {
    const forgot = (email: string, ip: string) => gateway.inject({
      method: 'POST', url: '/api/auth/forgot-password', remoteAddress: ip,
      headers: { origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: { email },
    });
    for (let i = 0; i < 3; i++) expect((await forgot('Carla@example.com', `198.18.0.${i + 1}`)).statusCode).toBe(200);
    const perEmail = await forgot(' carla@EXAMPLE.com', '198.18.0.9');
    expect(perEmail.statusCode).toBe(429);
    expect(ErrorBody.parse(perEmail.json()).message).toBe('Too many password reset requests. Please try again in 60 minutes.');

    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => forgot(`someone-${i}@example.com`, '198.18.1.1')));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(2);
  });

  const changePassword = (cookie: string, currentPassword: string) => gateway.inject({
    method: 'POST', url: '/api/auth/change-password', remoteAddress: OWNER,
    headers: { origin: OWN_ORIGIN, 'content-type': 'application/json', cookie }, payload: { currentPassword, newPassword: 'a new password 1' },
  });

  it('stops a signed-in session guessing its password: 10 wrong ones sent at once get 401, the rest 429, the right one too', async () => {
    const cookie = sessionCookieOf(await login('ana@example.com', PASSWORD, OWNER))!;
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => changePassword(cookie, `guess-${i}`)));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(5);
    const refused = await changePassword(cookie, PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(ErrorBody.parse(refused.json())).toEqual({ message: 'Too many wrong passwords. Please try again in 15 minutes.', code: 'rate_limited' });
  });

  it('forgives the wrong passwords of a user who then gives the right one', async () => {
    const cookie = sessionCookieOf(await login('dora@example.com', PASSWORD, OWNER))!;
    for (let i = 0; i < 9; i++) expect((await changePassword(cookie, `typo-${i}`)).statusCode).toBe(401);
    expect((await changePassword(cookie, PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await changePassword(cookie, `typo-again-${i}`)).statusCode).toBe(401);
  });
}

describe('login limits with counters in memory', () => {
  suite(async () => ({ stop: async () => {} }));
});

describeWithInfra(['redis'], 'login limits with counters in Redis', () => {
  let redis: RedisServer;
  suite(async () => {
    redis = await startRedis();
    return { redisUrl: redis.url, stop: () => redis.stop() };
  });
});
