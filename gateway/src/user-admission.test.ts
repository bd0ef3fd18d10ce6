/**
 * Admission by user at the gateway (user-admission.ts), over real HTTP: users are told apart by their session cookie,
 * whatever connection they come on. The event loop's utilization and lateness are given by the test, and the samples
 * are taken by hand.
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { createHttpApp, Metrics } from '@puente/platform';
import { gatewayOptionsFrom, gatewaySettings } from './settings.ts';
import { SESSION_COOKIE } from './sessions/sessions.ts';
import { logger } from './test-helpers.ts';
import { admitUsers, type UserAdmission } from './user-admission.ts';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

const IDLE_MS = 300;

describe('admission by user', () => {
  let app: FastifyInstance;
  let admission: UserAdmission;
  let base: string;
  let share = 0.5;
  let late = 0;
  const metrics = new Metrics();

  beforeAll(async () => {
    app = createHttpApp({ logger });
    app.get('/api/exchange-requests', async () => ({ items: [] }));
    app.post('/api/exchange-requests', async () => ({ saved: true }));
    app.get('/api/health', async () => ({ status: 'ok' }));
    app.get('/dashboard', async () => 'the app');
    admission = admitUsers(app.server, { busyUtilization: 0.9, metrics, utilization: () => share, lateness: () => late, sampleMs: 3_600_000, idleMs: IDLE_MS });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    admission?.stop();
    await app?.close();
  });

  /** A signed-in user's browser: each call on a connection of its own (a browser opens several), with their cookie. */
  const user = (name: string) => (path: string, method = 'GET') => new Promise<Answer>((resolve, reject) => {
    const agent = new Agent({ keepAlive: false });
    httpRequest(`${base}${path}`, { agent, method, headers: { cookie: `theme=dark; ${SESSION_COOKIE}=s%3A${name}.signature` } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    }).on('error', reject).end();
  });
  const samples = (utilization: number, count: number, lateMs = 0) => {
    share = utilization;
    late = lateMs;
    for (let i = 0; i < count; i++) admission.sample();
  };
  const market = '/api/exchange-requests';

  it('serves every user while the process has room', async () => {
    expect((await user('one')(market)).status).toBe(200);
    expect((await user('two')(market)).status).toBe(200);
    samples(0.5, 3);
    expect(admission.state()).toEqual({ served: 2, limit: null, refused: 0 });
  });

  it('once busy, serves the users it serves and refuses newcomers\' polls at once with 503 and Retry-After, newest first when it stays busy, and takes them back when calm', async () => {
    const [oldest, newer, newcomer] = [user('oldest'), user('newer'), user('newcomer')];
    expect((await oldest(market)).status).toBe(200);
    expect((await newer(market)).status).toBe(200);
    const served = admission.state().served;

    samples(0.95, 5); // a burst: the door stays open
    expect(admission.state()).toEqual({ served, limit: null, refused: 0 });
    samples(0.95, 1);
    expect(admission.state()).toEqual({ served, limit: served, refused: 0 });
    const refused = await newcomer(market);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(5);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15);
    expect(ErrorBody.parse(JSON.parse(refused.body))).toEqual({ code: 'service_unavailable', message: 'Puente is very busy right now. Please try again in a few seconds.' });
    // Written before Fastify, it still carries what every API answer does: the API's security headers and a request id.
    expect(refused.headers).toMatchObject({
      'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'referrer-policy': 'no-referrer', 'cache-control': 'no-store',
    });
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Only polls are refused here: a user's own call goes on (to its service's gate), as do health and the web app.
    expect(JSON.parse((await newcomer(market, 'POST')).body)).toEqual({ saved: true });
    expect((await newcomer('/api/health')).status).toBe(200);
    expect((await newcomer('/dashboard')).status).toBe(200);
    // The users served stay served, on any connection.
    expect((await oldest(market)).status).toBe(200);
    expect((await newer(market)).status).toBe(200);

    // Busy with the door shut: the newest tenth served is refused too, the oldest kept.
    samples(0.95, 4);
    expect(admission.state().limit).toBe(Math.floor(served * 0.9));
    expect((await newer(market)).status).toBe(503);
    expect((await oldest(market)).status).toBe(200);

    // Calm: the limit grows, and the refused are served again.
    samples(0.5, 3);
    expect((await newer(market)).status).toBe(200);
    expect((await newcomer(market)).status).toBe(200);
    expect(await metrics.registry.getSingleMetricAsString('puente_requests_shed_total'))
      .toContain('puente_requests_shed_total{service="gateway",upstream="gateway",route="/api/exchange-requests",answer="refused"} 2');
  });

  it('opens at once when idle, however many newcomers would fill each tenth it grows by when only calm', async () => {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 50));
    samples(0.3, 1);
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']) expect((await user(name)(market)).status).toBe(200);
    samples(0.95, 6);
    const { served } = admission.state();
    expect(admission.state().limit).toBe(served);
    // Calm (0.7 of a CPU against a bound of 0.9): each sample lets a tenth more in, and newcomers take those places.
    for (let i = 0; i < 3; i++) {
      samples(0.7, 1);
      const { limit } = admission.state();
      expect(limit).not.toBeNull();
      for (let k = admission.state().served; k < limit!; k++) expect((await user(`calm-${i}-${k}`)(market)).status).toBe(200);
      expect((await user(`calm-${i}-over`)(market)).status).toBe(503);
    }
    // Idle (under half the bound): the door opens in one sample.
    samples(0.3, 1);
    expect(admission.state().limit).toBeNull();
    expect((await user('after-the-burst')(market)).status).toBe(200);
  });

  it('shuts within a second when the loop runs far behind, and refuses more of the newest the later it runs', async () => {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 50));
    samples(0.3, 1);
    const names = Array.from({ length: 20 }, (_, i) => `late-${i}`);
    for (const name of names) expect((await user(name)(market)).status).toBe(200);
    // A loop 300 ms late for one sample is a burst; for two, more than it can take: shut without the 3 s wait.
    samples(0.95, 1, 300);
    expect(admission.state().limit).toBeNull();
    samples(0.95, 1, 300);
    expect(admission.state()).toMatchObject({ served: 20, limit: 20 });
    // Late 250 ms, five times what serves polls in time: two fifths of the newest go in one step, not a tenth.
    samples(0.95, 3, 250);
    expect(admission.state().limit).toBe(20);
    samples(0.95, 1, 250);
    expect(admission.state()).toMatchObject({ served: 12, limit: 12 });
    expect((await user(names[11]!)(market)).status).toBe(200);
    expect((await user(names[12]!)(market)).status).toBe(503);
    // Late 62.5 ms with the loop under the bound is still too late: a fifth more.
    samples(0.8, 4, 62.5);
    expect(admission.state()).toMatchObject({ served: 9, limit: 9 });
    // On time and calm: it grows again.
    samples(0.6, 1, 5);
    expect(admission.state().limit).toBe(11);
    expect((await user(names[9]!)(market)).status).toBe(200);
  });

  it('lets a user who stopped polling go, and leaves a poll without a session cookie to the session check', async () => {
    samples(0.5, 20);
    const before = admission.state().served;
    expect((await user('leaving')(market)).status).toBe(200);
    expect(admission.state().served).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 50));
    samples(0.5, 1);
    expect(admission.state().served).toBe(0);

    samples(0.95, 6);
    expect(admission.state().limit).toBe(0);
    expect((await fetch(`${base}${market}`)).status).toBe(200); // this app has no session check: the request got through
    expect((await user('anyone')(market)).status).toBe(503);
  });
});

describe('ADMISSION_EVENT_LOOP_UTILIZATION', () => {
  it('is off unless set, and a share above 0 and at most 1', () => {
    expect(gatewayOptionsFrom(gatewaySettings.parse({})).admissionLimits?.busyUtilization).toBeUndefined();
    expect(gatewayOptionsFrom(gatewaySettings.parse({ ADMISSION_EVENT_LOOP_UTILIZATION: '' })).admissionLimits?.busyUtilization).toBeUndefined();
    expect(gatewayOptionsFrom(gatewaySettings.parse({ ADMISSION_EVENT_LOOP_UTILIZATION: '0.9' })).admissionLimits?.busyUtilization).toBe(0.9);
    for (const bad of ['0', '1.5', 'busy']) {
      const parsed = gatewaySettings.safeParse({ ADMISSION_EVENT_LOOP_UTILIZATION: bad });
      expect(parsed.error?.issues[0]?.message).toBe('ADMISSION_EVENT_LOOP_UTILIZATION must be a share above 0 and at most 1, e.g. 0.9');
    }
  });
});
