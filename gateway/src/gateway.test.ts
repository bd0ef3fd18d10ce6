import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiRoutes, ServiceNames, type ServiceName } from '@puente/contracts';
import { buildTestGateway } from './test-helpers.ts';
import { ownerOf } from './routing.ts';

describe('routing table', () => {
  it('sends every call of the spec to the service that owns it', () => {
    const wrong = ApiRoutes.filter((r) => r.service !== 'gateway')
      .map((r) => ({ path: r.path.replace(/\{[^}]+\}/g, '1'), want: r.service }))
      .filter(({ path, want }) => ownerOf(path) !== want)
      .map(({ path, want }) => `${path} → ${ownerOf(path) ?? 'nobody'} (want ${want})`);
    expect(wrong).toEqual([]);
  });

  it('does not treat a longer word as the same prefix', () => {
    expect(ownerOf('/api/users/3')).toBe('identity');
    expect(ownerOf('/api/usersX')).toBeUndefined();
    expect(ownerOf('/api/admin/login-attempts')).toBe('audit');
    expect(ownerOf('/api/admin/users')).toBe('identity');
  });
});

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
      expect(api.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await gw.close();
    }
  });
});

describe('gateway in front of services', () => {
  const upstreams = new Map<ServiceName, FastifyInstance>();
  const seen: { service: ServiceName; url: string; headers: Record<string, unknown> }[] = [];
  let gateway: FastifyInstance;

  beforeAll(async () => {
    const serviceUrls: Partial<Record<ServiceName, string>> = {};
    for (const name of ServiceNames) {
      const up = Fastify();
      if (name === 'identity') up.get('/login', async (_req, reply) => reply.redirect('/login'));
      up.get('/ready', async (_req, reply) => (name === 'audit' && process.env.__AUDIT_DOWN ? reply.status(503).send({}) : { status: 'ok' }));
      up.all('/*', async (req) => { seen.push({ service: name, url: req.url, headers: req.headers }); return { service: name, url: req.url }; });
      await up.listen({ host: '127.0.0.1', port: 0 });
      upstreams.set(name, up);
      serviceUrls[name] = `http://127.0.0.1:${(up.server.address() as { port: number }).port}`;
    }
    gateway = await buildTestGateway({ serviceUrls });
  });
  afterAll(async () => {
    await gateway?.close();
    for (const up of upstreams.values()) await up.close();
  });

  it("passes a service's redirect on as written (the header's Log In: /api/login → /login, no loop)", async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/login' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login');
  });

  it('proxies /api/bank-accounts/3 to the accounts service without the /api prefix', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/bank-accounts/3?x=1' });
    expect(res.json()).toEqual({ service: 'accounts', url: '/bank-accounts/3?x=1' });
  });

  it('strips an internal token sent from outside and forwards its request id', async () => {
    await gateway.inject({ method: 'GET', url: '/api/ratings/user/5', headers: { 'x-internal-token': 'forged', 'x-request-id': 'req-123' } });
    const last = seen.at(-1)!;
    expect(last.service).toBe('rating');
    expect(last.headers['x-internal-token']).toBeUndefined();
    expect(last.headers['x-request-id']).toBe('req-123');
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('reports every service in /api/health, and degraded when one is not ready', async () => {
    const ok = await gateway.inject({ method: 'GET', url: '/api/health' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', services: Object.fromEntries(ServiceNames.map((n) => [n, 'ok'])) });
    process.env.__AUDIT_DOWN = '1';
    try {
      const degraded = await gateway.inject({ method: 'GET', url: '/api/health' });
      expect(degraded.statusCode).toBe(503);
      expect(degraded.json()).toMatchObject({ status: 'degraded', services: { audit: 'down', identity: 'ok' } });
    } finally {
      delete process.env.__AUDIT_DOWN;
    }
  });
});
