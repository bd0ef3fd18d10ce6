import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiRoutes, ErrorBody, ServiceNames, fillPath, servicePath, type ApiRoute, type ServiceName } from '@puente/contracts';
import { overallHealth } from '@puente/testkit';
import { proxiedRoutes } from './proxy.ts';
import { buildTestGateway, login, OWN_ORIGIN, sessionCookieOf, startFakeService, type FakeUpstream } from './test-helpers.ts';

const pathParams = (route: ApiRoute) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

describe('gateway serving the web app', () => {
  it('serves index.html for app routes and assets as files, and JSON 404s under /api', async () => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = mkdtempSync(join((await import('node:os')).tmpdir(), 'web-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    const gw = await buildTestGateway({ serviceUrls: {}, webRoot: root });
    try {
      for (const path of ['/', '/dashboard', '/register/ABC123', '/no/such/page']) {
        const res = await gw.inject({ method: 'GET', url: path });
        expect({ path, status: res.statusCode, html: String(res.headers['content-type']).startsWith('text/html') }).toEqual({ path, status: 200, html: true });
        expect(res.body).toContain('<div id="root">');
      }
      expect((await gw.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log(1)');
      const api = await gw.inject({ method: 'GET', url: '/api/nope' });
      expect(api.statusCode).toBe(404);
      expect(ErrorBody.parse(api.json()).code).toBe('not_found');
    } finally {
      await gw.close();
    }
  });
});

describe('gateway in front of services: routing from the declarations', () => {
  const upstreams = new Map<ServiceName, { close(): Promise<unknown> }>();
  const seen: { service: ServiceName; method: string; url: string; headers: Record<string, unknown> }[] = [];
  let identity: FakeUpstream;
  let gateway: FastifyInstance;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    const serviceUrls: Partial<Record<ServiceName, string>> = {};
    for (const name of ServiceNames) {
      if (name === 'identity') {
        // Logins work (sessions for the tests below); every other identity path echoes.
        identity = await startFakeService('identity');
        upstreams.set(name, identity);
        serviceUrls[name] = identity.url;
        continue;
      }
      const up = Fastify();
      up.get('/ready', async (_req, reply) => {
        const checks = { database: true, bus: true, jobs: true, schedules: true };
        if (name === 'audit' && process.env.__AUDIT_DOWN) return reply.status(503).send({ status: 'unavailable', checks: { ...checks, database: false } });
        if (name === 'rating' && process.env.__RATING_DEGRADED) return { status: 'degraded', checks: { ...checks, bus: false } };
        return { status: 'ok', checks };
      });
      up.all('/*', async (req, reply) => {
        seen.push({ service: name, method: req.method, url: req.url, headers: req.headers });
        // As a polled route does: a client holding the current ETag gets 304.
        if (req.headers['if-none-match'] === '"v1"') return reply.code(304).header('etag', '"v1"').header('cache-control', 'private, no-cache').send();
        return { service: name, url: req.url };
      });
      await up.listen({ host: '127.0.0.1', port: 0 });
      upstreams.set(name, up);
      serviceUrls[name] = `http://127.0.0.1:${(up.server.address() as { port: number }).port}`;
    }
    gateway = await buildTestGateway({ serviceUrls });
    admin = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    user = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
  });
  afterAll(async () => {
    await gateway?.close();
    for (const up of upstreams.values()) await up.close();
  });

  /** What the services received since `mark` (the fake identity keeps its own list). */
  const mark = () => ({ others: seen.length, identity: identity.seen.length });
  const receivedSince = (m: ReturnType<typeof mark>) =>
    [...seen.slice(m.others), ...identity.seen.slice(m.identity).map((s) => ({ ...s, service: 'identity' as const }))];

  const send = (route: ApiRoute, cookie?: string) => gateway.inject({
    method: route.method, url: fillPath(route.path, Object.fromEntries(pathParams(route).map((p) => [p, '7']))),
    headers: { origin: OWN_ORIGIN, ...(cookie ? { cookie } : {}), ...(route.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    ...(route.method === 'GET' ? {} : { payload: '{}' }),
  });

  it('proxies every declared route of every service to it, without the /api prefix', async () => {
    const wrong: string[] = [];
    for (const [service, routes] of proxiedRoutes()) {
      for (const route of routes) {
        if (route.navigation || route.name === 'login' || route.name === 'loginTwoFactor') continue; // the fake identity answers these itself
        // A fresh session each time: the fake identity ends the caller's sessions on a password reset.
        const cookie = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
        const before = mark();
        const res = await send(route, cookie);
        const want = servicePath(route).replace(/:\w+/g, '7');
        // By its path: a first poll of the notifications or the count is asked in a batch first (first-polls.ts).
        const got = receivedSince(before).find((s) => s.service === service && s.url === want);
        if (res.statusCode >= 400 || !got || got.url !== want || got.method !== route.method) {
          wrong.push(`${route.method} ${route.path}: ${res.statusCode}, reached ${got ? `${got.service} ${got.method} ${got.url}` : 'nothing'}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('passes a conditional poll through: If-None-Match up to the service, its 304 and ETag down to the browser', async () => {
    const before = mark();
    const res = await gateway.inject({ method: 'GET', url: '/api/notifications/count', headers: { cookie: user, 'if-none-match': '"v1"' } });
    expect(res.statusCode).toBe(304);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBe('"v1"');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(receivedSince(before).map((s) => [s.service, s.url, s.headers['if-none-match']])).toEqual([['notification', '/notifications/count', '"v1"']]);
  });

  it('keeps users\' and admins\' routes from visitors (401) and admins\' from users (403), before any service sees them', async () => {
    const before = mark();
    const statuses = new Set<string>();
    for (const routes of proxiedRoutes().values()) {
      for (const route of routes) {
        if (route.access === 'user' || route.access === 'admin') statuses.add(`${route.access} visitor ${(await send(route)).statusCode}`);
        if (route.access === 'admin') statuses.add(`admin user ${(await send(route, user)).statusCode}`);
      }
    }
    expect([...statuses].sort()).toEqual(['admin user 403', 'admin visitor 401', 'user visitor 401']);
    expect(receivedSince(before)).toEqual([]);
  });

  it('serves no internal route and no undeclared path: a JSON 404', async () => {
    const paths = [
      ...ApiRoutes.filter((r) => r.access === 'internal').map((r) => [r.method, fillPath(r.path, Object.fromEntries(pathParams(r).map((p) => [p, '7'])))]),
      ['GET', '/api/nope'], ['GET', '/api/bank-accounts/3'], ['POST', '/api/bank-accounts/1/verify'],
    ] as const;
    for (const [method, url] of paths) {
      const res = await gateway.inject({ method, url, headers: { origin: OWN_ORIGIN, cookie: admin } });
      expect({ method, url, status: res.statusCode, body: ErrorBody.parse(res.json()).code }).toEqual({ method, url, status: 404, body: 'not_found' });
    }
  });

  it("passes a service's redirect on as written (the header's Log In: /api/login → /login, no loop)", async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/login' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login');
  });

  it('forwards the query as it came', async () => {
    const cookie = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
    const res = await gateway.inject({ method: 'GET', url: '/api/admin/login-attempts?email=a%40b.c&limit=5', headers: { cookie } });
    expect(res.json()).toEqual({ service: 'audit', url: '/admin/login-attempts?email=a%40b.c&limit=5' });
  });

  it('strips an internal token sent from outside and forwards its request id', async () => {
    await gateway.inject({ method: 'GET', url: '/api/bank-accounts', headers: { cookie: user, 'x-internal-token': 'forged', 'x-request-id': 'req-123' } });
    const last = seen.at(-1)!;
    expect(last.service).toBe('accounts');
    expect(last.headers['x-internal-token']).not.toBe('forged');
    expect(last.headers['x-request-id']).toBe('req-123');
  });

  it('reports every service in /api/health, and degraded when one is not ready', async () => {
    const ok = await gateway.inject({ method: 'GET', url: '/api/health' });
    expect(ok.statusCode).toBe(200);
    expect(overallHealth(ok.json())).toEqual({ status: 'ok', services: Object.fromEntries(ServiceNames.map((n) => [n, 'ok'])) });
    process.env.__AUDIT_DOWN = '1';
    try {
      const degraded = await gateway.inject({ method: 'GET', url: '/api/health' });
      expect(degraded.statusCode).toBe(503);
      expect(overallHealth(degraded.json())).toEqual({
        status: 'degraded', services: { ...Object.fromEntries(ServiceNames.map((n) => [n, 'ok'])), audit: 'down' },
      });
    } finally {
      delete process.env.__AUDIT_DOWN;
    }
  });

  it('says degraded, not down, for a service that serves with its bus away, and stays 200', async () => {
    process.env.__RATING_DEGRADED = '1';
    try {
      const res = await gateway.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(overallHealth(res.json())).toEqual({
        status: 'degraded', services: { ...Object.fromEntries(ServiceNames.map((n) => [n, 'ok'])), rating: 'degraded' },
      });
    } finally {
      delete process.env.__RATING_DEGRADED;
    }
  });

  it('serves the OpenAPI document of every declared public route, each served, and Swagger UI', async () => {
    const doc = (await gateway.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json() as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
    const problems: string[] = [];
    for (const { method, path, op } of documented) {
      const served = gateway.hasRoute({ method: method as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') });
      if (!served) problems.push(`${method} ${path}: documented, not served`);
      if (!Object.keys(op.responses).some((s) => Number(s) < 400)) problems.push(`${method} ${path}: no success answer`);
    }
    // And the other way: every /api route the gateway serves is in the document.
    for (const route of ApiRoutes.filter((r) => r.access !== 'internal')) {
      if (!documented.some((d) => d.method === route.method && d.path === route.path)) problems.push(`${route.method} ${route.path}: served, not documented`);
    }
    expect(problems).toEqual([]);
    const spec = new Set(['/api/exchange-rate', '/api/ratings', '/api/notifications/count', '/api/subscription/info', '/api/auth/user']);
    expect([...spec].filter((p) => !doc.paths[p])).toEqual([]);
    const ui = await gateway.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('gateway in front of a service that is down', () => {
  /** A port nothing listens on (a server opened and closed). */
  async function closedPortUrl(): Promise<string> {
    const probe = Fastify();
    await probe.listen({ host: '127.0.0.1', port: 0 });
    const { port } = probe.server.address() as { port: number };
    await probe.close();
    return `http://127.0.0.1:${port}`;
  }

  it("answers 503 'service_unavailable' with a clear message, not 500, and gives a login's points back", async () => {
    const identity = await startFakeService('identity');
    const down = await closedPortUrl();
    const gateway = await buildTestGateway({ serviceUrls: { identity: identity.url, accounts: down } });
    try {
      const cookie = sessionCookieOf(await login(gateway, 'ben@example.com'))!;
      const res = await gateway.inject({ method: 'GET', url: '/api/bank-accounts', headers: { cookie } });
      expect(res.statusCode).toBe(503);
      expect(ErrorBody.parse(res.json())).toEqual({ code: 'service_unavailable', message: 'The accounts service is not available right now. Please try again later.' });

      // Identity down: every login attempt is a 503, and none of them uses up the account's 5 attempts.
      await identity.close();
      for (let i = 0; i < 7; i++) expect((await login(gateway, 'ben@example.com')).statusCode).toBe(503);
    } finally {
      await gateway.close();
      await identity.close().catch(() => {});
    }
  });

  /**
   * An instance that dies with the request on its socket: the first connection through this front is reset as soon
   * as bytes arrive (what the gateway sees when an instance behind a shared port is killed); later ones reach the
   * service.
   */
  async function resettingFront(target: string): Promise<{ url: string; resets: number; close(): Promise<void> }> {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      if (front.resets === 0) {
        socket.once('data', () => { front.resets += 1; socket.resetAndDestroy(); });
        return;
      }
      const { hostname, port } = new URL(target);
      const upstream = connect(Number(port), hostname);
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      sockets.add(upstream);
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const front = {
      url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      resets: 0,
      close: () => new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    };
    return front;
  }

  it('tries a repeatable request once more on a new connection when the instance it reached died, and never a POST', async () => {
    const identity = await startFakeService('identity');
    const exchange = await startFakeService('exchange');
    const front = await resettingFront(exchange.url);
    const gateway = await buildTestGateway({ serviceUrls: { identity: identity.url, exchange: front.url } });
    try {
      const cookie = sessionCookieOf(await login(gateway, 'ana@example.com'))!;
      const confirm = await gateway.inject({ method: 'PUT', url: '/api/exchange-matches/7/confirm', headers: { cookie, origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: '{"note":1}' });
      expect(confirm.statusCode).toBe(200);
      expect(front.resets).toBe(1);
      expect(exchange.seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual(['PUT /exchange-matches/7/confirm {"note":1}']);

      // A POST may have been acted on before the reset: the browser is told, and the service sees it at most once.
      front.resets = 0;
      await gateway.close();
      const fresh = await buildTestGateway({ serviceUrls: { identity: identity.url, exchange: front.url } });
      try {
        const again = sessionCookieOf(await login(fresh, 'ana@example.com'))!;
        const post = await fresh.inject({ method: 'POST', url: '/api/exchange-requests', headers: { cookie: again, origin: OWN_ORIGIN, 'content-type': 'application/json' }, payload: '{}' });
        expect(post.statusCode).toBe(503);
        expect(ErrorBody.parse(post.json()).code).toBe('service_unavailable');
        expect(exchange.seen).toHaveLength(1);
      } finally {
        await fresh.close();
      }
    } finally {
      await gateway.close();
      await front.close();
      await Promise.all([identity.close(), exchange.close()]);
    }
  });
});

