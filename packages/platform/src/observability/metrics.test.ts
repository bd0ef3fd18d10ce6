import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../http/app.ts';
import { InProcessBus } from '../messaging/in-process.ts';
import { Metrics, type MetricsServer } from './metrics.ts';

describe('Metrics: the /metrics listener', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => { await server?.close(); server = undefined; });

  it('answers GET /metrics with the exposition and anything else with 404', async () => {
    const metrics = new Metrics();
    server = await metrics.serve({ host: '127.0.0.1', port: 0 });
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('# TYPE puente_http_request_duration_seconds histogram');
    expect((await fetch(server.url.replace('/metrics', '/api/health'))).status).toBe(404);
  });

  it('leaves out what a failing probe would report, and serves the rest of the scrape', async () => {
    const metrics = new Metrics();
    const broken = new InProcessBus();
    broken.consumerStats = () => Promise.reject(new Error('broker unreachable'));
    metrics.observeBus(broken);
    metrics.observeLiveSockets(() => 3);
    const text = await metrics.scrape();
    expect(text).toContain('puente_ws_sockets_open{service="gateway"} 3');
    expect(text).not.toMatch(/^puente_consumer_lag\{/m);
  });

  it('times requests by route pattern and status; a path no route serves is "unmatched"', async () => {
    const metrics = new Metrics();
    const app = createHttpApp({ logger: pino({ level: 'silent' }), requestMetrics: metrics.requestMetrics('exchange') });
    app.get('/exchange-matches/:id', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/exchange-matches/41' });
    await app.inject({ method: 'GET', url: '/exchange-matches/42' });
    await app.inject({ method: 'GET', url: '/nothing/here' });
    const text = await metrics.scrape();
    expect(text).toContain('puente_http_request_duration_seconds_count{service="exchange",method="GET",route="/exchange-matches/:id",status_code="200"} 2');
    expect(text).toContain('puente_http_request_duration_seconds_count{service="exchange",method="GET",route="unmatched",status_code="404"} 1');
    expect(text).not.toContain('/exchange-matches/41');
    await app.close();
  });
});
