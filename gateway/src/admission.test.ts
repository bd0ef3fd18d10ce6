/**
 * Admission control at the gateway (admission.ts), over real HTTP, against a market service that can be held busy:
 * while its slots are taken, a request past them is refused with 503 and Retry-After, and a market poll is answered
 * from the copy the gateway holds, marked X-Puente-Stale. What was shed shows in the metrics and /api/health. And
 * while the gateway's own event loop stays busy (user-admission.ts), a newcomer's polls are refused before any
 * service.
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBody, ExchangeRequestList, ExchangeVersions, HealthResponse, KEPT_KEYS_SET, POLL_AUDIENCE_HEADER, Routes, type ExchangeRequest } from '@puente/contracts';
import { answeredNotModified, createHttpApp, MemoryVersionStore, Metrics, serve, serviceVersions } from '@puente/platform';
import { testAuth } from '@puente/platform/testing';
import { createAdmission, STALE_HEADER } from './admission.ts';
import { buildTestGateway, login, logger, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

const versions = new MemoryVersionStore();
const CONCURRENCY = 2;

const offer = (id: number): ExchangeRequest => ({
  id, userId: 9, fromCurrency: 'GBP', toCurrency: 'CLP', amount: 100, exchangeRate: 1275, status: 'open', createdAt: '2026-11-25T10:00:00.000Z',
  user: { firstName: 'Ana', lastName: 'Rojas', profileImageUrl: null, trustRating: null, transactionCount: 0, completionRate: null, averageCompletionMinutes: null, memberSince: null },
});

/**
 * The exchange service: the market as everyone sees it, and the market's other paths answered once `busy` lets go of them
 * (a service slow to answer). `reached` lists the paths that got to it.
 */
async function busyExchange() {
  const app = createHttpApp({ logger, auth: testAuth('exchange') });
  app.decorate('versions', serviceVersions(versions, 'exchange', logger));
  const state = { market: [offer(1)], reached: [] as string[], busy: undefined as Promise<void> | undefined };
  app.addHook('onRequest', async (request) => { state.reached.push(`${request.method} ${request.url}`); });
  serve(app, Routes.exchange.requests, async (req, reply) => {
    reply.header(POLL_AUDIENCE_HEADER, 'everyone');
    if (await answeredNotModified(req, reply, app.versions, Routes.exchange.requests.polled.keys())) return reply;
    return state.market;
  });
  app.all('/exchange-requests/*', async (request) => {
    await state.busy;
    return { url: request.url };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, state };
}

describe('admission control at the gateway', () => {
  let identity: FakeUpstream;
  let exchange: Awaited<ReturnType<typeof busyExchange>>;
  let gateway: FastifyInstance;
  let base: string;
  let ana: string;
  const metrics = new Metrics();

  beforeAll(async () => {
    identity = await startFakeService('identity');
    exchange = await busyExchange();
    gateway = await buildTestGateway({
      serviceUrls: { identity: identity.url, exchange: exchange.url }, versions, metrics,
      admissionLimits: { concurrency: CONCURRENCY, queueMs: 200 },
    });
    ana = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    base = await gateway.listen({ host: '127.0.0.1', port: 0 });
    await serviceVersions(versions, 'exchange', logger).bump([KEPT_KEYS_SET]); // no one in a block
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([identity?.close(), exchange?.app.close()]);
  });

  const call = (method: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method, headers: { cookie: ana, origin: base, ...headers } });
  const health = async () => HealthResponse.parse(await (await call('GET', '/api/health')).json());

  /** Holds the service busy with `CONCURRENCY` reads under way (every slot taken) while `during` runs. */
  async function whileBusy(during: () => Promise<void>): Promise<void> {
    let letGo!: () => void;
    exchange.state.busy = new Promise((resolve) => { letGo = resolve; });
    const reached = exchange.state.reached.length;
    const taking = Array.from({ length: CONCURRENCY }, () => call('GET', '/api/exchange-requests/limits'));
    try {
      await vi.waitFor(() => expect(exchange.state.reached.length).toBe(reached + CONCURRENCY));
      await during();
    } finally {
      letGo();
      exchange.state.busy = undefined;
      // The requests that held the slots were not shed: they got their answers.
      expect((await Promise.all(taking)).map((res) => res.status)).toEqual(Array(CONCURRENCY).fill(200));
    }
  }

  it('sheds nothing under the limit, and /api/health shows the requests in flight', async () => {
    await whileBusy(async () => {
      expect((await health()).saturation.exchange).toEqual({ inFlight: CONCURRENCY, queued: 0, limit: CONCURRENCY, shed: { refused: 0, held: 0 } });
    });
    expect((await health()).saturation.exchange).toEqual({ inFlight: 0, queued: 0, limit: CONCURRENCY, shed: { refused: 0, held: 0 } });
  });

  it('answers a request past the limit 503 with Retry-After, and says a write was not saved', async () => {
    await whileBusy(async () => {
      const reached = exchange.state.reached.length;
      const started = Date.now();
      const [read, write] = await Promise.all([call('GET', '/api/exchange-requests/7'), call('PATCH', '/api/exchange-requests/7/cancel')]);
      expect(Date.now() - started).toBeLessThan(2_000);
      for (const res of [read, write]) {
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3);
      }
      expect(ErrorBody.parse(await read.json())).toEqual({ code: 'service_unavailable', message: 'Puente is very busy right now. Please try again in a few seconds.' });
      expect(ErrorBody.parse(await write.json())).toEqual({
        code: 'service_unavailable', message: 'Puente is very busy right now, and this was not saved. Please try again in a few seconds.',
      });
      expect(exchange.state.reached.length).toBe(reached); // neither reached the service
    });
    // Once the service is free again, the same requests go through.
    expect((await call('PATCH', '/api/exchange-requests/7/cancel')).status).toBe(200);
  });

  it('answers a market poll past the limit from the copy it holds, marked stale; the next poll sees the change', async () => {
    // Ana is in no block: her first poll is fetched for everyone and kept.
    const kept = await call('GET', '/api/exchange-requests');
    expect(ExchangeRequestList.parse(await kept.json()).map((r) => r.id)).toEqual([1]);
    exchange.state.market = [offer(2), offer(1)];
    await serviceVersions(versions, 'exchange', logger).bump([ExchangeVersions.market]);
    await whileBusy(async () => {
      const held = await call('GET', '/api/exchange-requests');
      expect(held.status).toBe(200);
      expect(held.headers.get(STALE_HEADER)).toBe('1');
      expect(ExchangeRequestList.parse(await held.json()).map((r) => r.id)).toEqual([1]);
    });
    const fresh = await call('GET', '/api/exchange-requests');
    expect(fresh.headers.get(STALE_HEADER)).toBeNull();
    expect(ExchangeRequestList.parse(await fresh.json()).map((r) => r.id)).toEqual([2, 1]);
  });

  it('counts what was shed per route in the metrics and in /api/health', async () => {
    const text = await metrics.scrape();
    const shed = (route: string, answer: string) =>
      Number(new RegExp(`^puente_requests_shed_total\\{service="gateway",upstream="exchange",route="${route}",answer="${answer}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect({
      read: shed('/api/exchange-requests/:id', 'refused'), write: shed('/api/exchange-requests/:id/cancel', 'refused'),
      market: shed('/api/exchange-requests', 'held'),
    }).toEqual({ read: 1, write: 1, market: 1 });
    expect((await health()).saturation.exchange.shed).toEqual({ refused: 2, held: 1 });
    // Without ADMISSION_EVENT_LOOP_UTILIZATION the gateway admits every user: health says there is no such door.
    expect((await health()).users).toBeNull();
  });
});

describe('the gateway\'s own process under pressure', () => {
  let identity: FakeUpstream;
  let exchange: FakeUpstream;
  let gateway: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    [identity, exchange] = await Promise.all([startFakeService('identity'), startFakeService('exchange')]);
    gateway = await buildTestGateway({
      serviceUrls: { identity: identity.url, exchange: exchange.url }, admissionLimits: { concurrency: 32, queueMs: 250, busyUtilization: 0.9 },
    });
    base = await gateway.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([identity?.close(), exchange?.close()]);
  });

  /** Keeps the event loop busy, as a gateway short of CPU would be, letting its timers run in between. */
  const busyFor = async (ms: number) => {
    for (const until = performance.now() + ms; performance.now() < until;) {
      for (const slice = performance.now() + 100; performance.now() < slice;);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** A market poll on a connection of its own, as a browser newly arrived. */
  const pollAsNewcomer = async (cookie: string) => {
    const dispatcher = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      return await new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
        httpRequest(`${base}/api/exchange-requests?sort=newest&limit=50`, { agent: dispatcher, headers: { cookie } }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body }));
        }).on('error', reject).end();
      });
    } finally {
      dispatcher.destroy();
    }
  };

  it('with ADMISSION_EVENT_LOOP_UTILIZATION set, refuses a newcomer\'s poll with 503 and Retry-After while its event loop stays busy, and serves it once calm', async () => {
    const ana = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
    let refused: Awaited<ReturnType<typeof pollAsNewcomer>> | undefined;
    await vi.waitFor(async () => {
      await busyFor(1_200);
      refused = await pollAsNewcomer(ana);
      expect(refused.status).toBe(503);
    }, { timeout: 20_000, interval: 0 });
    expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(5);
    expect(ErrorBody.parse(JSON.parse(refused!.body))).toEqual({ code: 'service_unavailable', message: 'Puente is very busy right now. Please try again in a few seconds.' });
    const health = async () => HealthResponse.parse(await (await fetch(`${base}/api/health`)).json()).users!;
    const shut = await health();
    expect(shut.refused).toBeGreaterThanOrEqual(1);
    expect(shut.limit).toBeGreaterThanOrEqual(shut.served);
    await vi.waitFor(async () => expect((await pollAsNewcomer(ana)).status).toBe(200), { timeout: 20_000, interval: 500 });
    // Calm: the door opens again, and health still counts what it refused while shut (the polls above waiting for
    // the 200 may have been refused too).
    await vi.waitFor(async () => expect((await health()).limit).toBeNull(), { timeout: 20_000, interval: 500 });
    const open = await health();
    expect(open.served).toBe(1);
    expect(open.refused).toBeGreaterThanOrEqual(shut.refused);
  }, 60_000);
});

describe('a gate', () => {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('never refuses the login\'s second step: it waits first in line for as long as it takes', async () => {
    const gate = createAdmission({ concurrency: 1, queueMs: 20 }).gate('identity');
    const first = (await gate.enter('call'))!;
    const waiting = gate.enter('call');
    const secondStep = gate.enter('second-step');
    expect(await waiting).toBeUndefined(); // past the cap
    await pause(100);
    first();
    const release = await secondStep;
    expect(release).toBeTypeOf('function');
    release!();
  });

  it('refuses polls past the budget once the line stands, but lets a burst of users\' calls wait their turn ahead of the polls', async () => {
    const gate = createAdmission({ concurrency: 1, queueMs: 75 }).gate('exchange');
    // The service's answer time learnt: 50 ms (to 75 ms on a busy machine) a request.
    const learnt = (await gate.enter('call'))!;
    await pause(50);
    learnt();
    const busy = [(await gate.enter('call'))!];
    // One poll waiting would wait one answer time (under the 75 ms budget); a second, two (past it). A line that
    // has just formed is a burst: the second waits too. Once it has stood for the budget, a third is refused.
    const polls = [gate.enter('poll'), gate.enter('poll')];
    await pause(100);
    const refusedPoll = gate.enter('poll');
    // Four calls (a crowd accepting one request) wait ahead of the poll, within the cap (4 × 75 ms).
    const calls = Array.from({ length: 4 }, () => gate.enter('call'));
    expect(await refusedPoll).toBeUndefined();
    const order: string[] = [];
    const serve = async (kind: string, entered: Promise<(() => void) | undefined>) => {
      const release = await entered;
      if (!release) return order.push(`${kind} refused`);
      order.push(kind);
      await pause(5);
      release();
    };
    const served = Promise.all([...calls.map((c) => serve('call', c)), ...polls.map((p) => serve('poll', p))]);
    for (const release of busy) release();
    await served;
    expect(order.filter((o) => o.endsWith('refused'))).toEqual([]);
    expect(order).toEqual(['call', 'call', 'call', 'call', 'poll', 'poll']);
  });
});
