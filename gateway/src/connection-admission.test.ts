/**
 * Admission by connection (connection-admission.ts), over real sockets: each `connection()` is one keep-alive
 * connection, as a browser's. The event loop's utilization is given by the test, and the samples are taken by hand.
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '@puente/contracts';
import { createHttpApp, Metrics } from '@puente/platform';
import { admitConnections, type ConnectionAdmission } from './connection-admission.ts';
import { gatewayOptionsFrom, gatewaySettings } from './settings.ts';
import { logger } from './test-helpers.ts';

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

describe('admission by connection', () => {
  let app: FastifyInstance;
  let admission: ConnectionAdmission;
  let base: string;
  let share = 0.5;
  const metrics = new Metrics();
  const agents: Agent[] = [];

  beforeAll(async () => {
    app = createHttpApp({ logger });
    app.get('/api/exchange-requests', async () => ({ items: [] }));
    app.post('/api/exchange-requests', async () => ({ saved: true }));
    app.get('/api/health', async () => ({ status: 'ok' }));
    app.get('/dashboard', async () => 'the app');
    admission = admitConnections(app.server, { busyUtilization: 0.9, metrics, utilization: () => share, sampleMs: 3_600_000 });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    admission?.stop();
    for (const agent of agents) agent.destroy();
    await app?.close();
  });

  /** A browser's connection: every call on it goes over the same socket. */
  function connection() {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return (path: string, method = 'GET') => new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { agent, method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { body += chunk; });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }
  const samples = (utilization: number, count: number) => {
    share = utilization;
    for (let i = 0; i < count; i++) admission.sample();
  };

  it('serves every connection while the process has room', async () => {
    const [one, two] = [connection(), connection()];
    expect((await one('/api/exchange-requests')).status).toBe(200);
    expect((await two('/api/exchange-requests')).status).toBe(200);
    samples(0.5, 3);
    expect(admission.state()).toEqual({ served: 2, limit: Number.POSITIVE_INFINITY });
  });

  it('once busy, serves the connections it serves and refuses newcomers\' polls at once with 503 and Retry-After, newest first when it stays busy, and takes them back when calm', async () => {
    const [oldest, newer, newcomer] = [connection(), connection(), connection()];
    expect((await oldest('/api/exchange-requests')).status).toBe(200);
    expect((await newer('/api/exchange-requests')).status).toBe(200);
    const served = admission.state().served;

    samples(0.95, 1); // a moment's burst: the door stays open
    expect(admission.state()).toEqual({ served, limit: Number.POSITIVE_INFINITY });
    samples(0.95, 1);
    expect(admission.state()).toEqual({ served, limit: served });
    const refused = await newcomer('/api/exchange-requests');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(5);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(15);
    expect(ErrorBody.parse(JSON.parse(refused.body))).toEqual({ code: 'service_unavailable', message: 'Puente is very busy right now. Please try again in a few seconds.' });
    // Only polls are refused here: a user's own call goes on (to its service's gate), as do health and the web app.
    expect(JSON.parse((await newcomer('/api/exchange-requests', 'POST')).body)).toEqual({ saved: true });
    expect((await newcomer('/api/health')).status).toBe(200);
    expect((await newcomer('/dashboard')).status).toBe(200);
    expect((await oldest('/api/exchange-requests')).status).toBe(200);
    expect((await newer('/api/exchange-requests')).status).toBe(200);

    // Busy with the door shut: the newest tenth served is refused too, the oldest kept.
    samples(0.95, 4);
    expect(admission.state().limit).toBe(Math.floor(served * 0.9));
    expect((await newer('/api/exchange-requests')).status).toBe(503);
    expect((await oldest('/api/exchange-requests')).status).toBe(200);

    // Calm: the limit grows, and the refused are served again on the connections they kept.
    samples(0.5, 3);
    expect((await newer('/api/exchange-requests')).status).toBe(200);
    expect((await newcomer('/api/exchange-requests')).status).toBe(200);
    expect(await metrics.registry.getSingleMetricAsString('puente_requests_shed_total'))
      .toContain('puente_requests_shed_total{service="gateway",upstream="gateway",route="connection",answer="refused"} 2');
  });

  it('frees the place of a connection that closes', async () => {
    samples(0.5, 20);
    const before = admission.state().served;
    const leaving = connection();
    expect((await leaving('/api/exchange-requests')).status).toBe(200);
    expect(admission.state().served).toBe(before + 1);
    agents.at(-1)!.destroy();
    await expect.poll(() => admission.state().served).toBe(before);
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
