/**
 * Prometheus metrics end to end (distributed): every process (the gateway and each service) serves /metrics on a
 * port of its own, never on the gateway's public one. Ana and Bob sign up, Ana fails a login once, and they run a
 * whole exchange (post → accept → confirm → complete → both rate) with Ana's /ws socket open; the test reads every
 * process's /metrics before and after and checks what a platform engineer would: the business counters moved by
 * exactly the trade's steps, the gateway and the exchange service timed the exchange's routes by route pattern,
 * and once the events have gone through, every outbox is empty and every consumer group has no lag. Embedded (all in
 * one process), one registry on one port holds every service's samples, each labelled with its service.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExchangeMatch, ExchangeRequest, Rating, ServiceNames } from '@puente/contracts';
import { appClient, describeWithInfra, type AppClient } from '@puente/testkit';
import { startDistributedApp, startEmbeddedApp, type RunningTestApp, showOutputOnFailure } from './testing/running-app.ts';
import { openLiveSocket, type LiveSocket } from './testing/live-socket.ts';
import { Scrape } from './testing/metrics.ts';
import { addBankAccounts, bankAccountsOf, onceAccountsKnown, traders, viaBus } from './testing/traders.ts';

const ADMIN = { email: 'admin@puente.test', password: 'admin password 1', code: 'METRICS-CODE' };
const appEnv = {
  ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_REFERRAL_CODE: ADMIN.code,
  BANK_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  // The mock broker does not answer a waiting fetch when records arrive (a real one does): short waits.
  KAFKA_FETCH_MAX_WAIT_MS: '100', OUTBOX_POLL_MS: '100',
};
const PROCESSES = ['gateway', ...ServiceNames] as const;
const DURATION_COUNT = 'puente_http_request_duration_seconds_count';

describeWithInfra(['postgres', 'redis', 'kafka'], 'Prometheus metrics of every process during an exchange', () => {
  let app: RunningTestApp;
  let client: AppClient;
  let socket: LiveSocket | undefined;

  beforeAll(async () => {
    app = await startDistributedApp('metrics-e2e', appEnv, { metrics: true });
    client = appClient(app.url);
  }, 150_000);
  afterAll(async () => {
    socket?.socket.close();
    await app?.stop();
  }, 60_000);
  showOutputOnFailure(() => app);

  const scrape = (proc: string) => Scrape.of(app.metricsUrls![proc]!);
  const scrapeAll = async () => Object.fromEntries(await Promise.all(PROCESSES.map(async (p) => [p, await scrape(p)] as const))) as Record<typeof PROCESSES[number], Scrape>;

  it('serves /metrics on each process\'s own port, with the runtime\'s, pool\'s, outbox\'s and jobs\' gauges, and not on the public port', async () => {
    expect(Object.keys(app.metricsUrls!).sort()).toEqual([...PROCESSES].sort());
    expect(new Set(Object.values(app.metricsUrls!).map((u) => new URL(u).port)).size).toBe(PROCESSES.length);
    expect(Object.values(app.metricsUrls!)).not.toContain(`${app.url}/metrics`);
    const pub = await fetch(`${app.url}/metrics`);
    expect(await pub.text()).not.toContain('puente_http_request_duration_seconds');

    const all = await scrapeAll();
    for (const proc of PROCESSES) {
      const s = all[proc];
      expect([proc, s.find('nodejs_eventloop_lag_p99_seconds').length, s.find('process_cpu_seconds_total').length]).toEqual([proc, 1, 1]);
    }
    expect(all.gateway.value('puente_ws_sockets_open', { service: 'gateway' })).toBe(0);
    for (const service of ServiceNames) {
      const s = all[service];
      expect([service, s.value('puente_db_pool_max', { service })]).toEqual([service, 10]);
      expect(s.find('puente_db_pool_connections', { service }).map((x) => x.labels.state).sort()).toEqual(['idle', 'in_use', 'waiting']);
      expect(s.find('puente_jobs', { service }).map((x) => x.labels.state).sort()).toEqual(['active', 'delayed', 'failed', 'waiting']);
      expect([service, s.find('puente_outbox_backlog', { service }).length, s.find('puente_outbox_oldest_age_seconds', { service }).length]).toEqual([service, 1, 1]);
    }
    // Each service consumes as one group named after it, nothing dead-lettered. The lag comes from the broker, whose
    // admin connection a process opens at its first scrape: a scrape it does not answer in time leaves the group out.
    await vi.waitFor(async () => {
      const now = await scrapeAll();
      for (const service of ServiceNames) {
        expect([service, now[service].value('puente_dead_letters_total', { group: service })]).toEqual([service, 0]);
        expect([service, now[service].find('puente_consumer_lag', { group: service }).length]).toEqual([service, 1]);
      }
    }, { timeout: 30_000, interval: 500 });
  }, 60_000);

  it('counts the exchange\'s steps exactly, times its routes by pattern, and drains every outbox and consumer group', async () => {
    const before = await scrapeAll();

    const ana = await client.signUp(traders.ana, ADMIN.code);
    const bob = await client.signUp(traders.bob, ADMIN.code);
    expect((await client.login(traders.ana.email, 'not her password')).res.status).toBe(401);
    socket = await openLiveSocket('ana', app.url, ana.cookie);
    await addBankAccounts(client, ana, bankAccountsOf.ana);
    await addBankAccounts(client, bob, bankAccountsOf.bob);
    const request = ExchangeRequest.parse(await onceAccountsKnown(client, '/api/exchange-requests', ana, {
      fromCurrency: 'GBP', toCurrency: 'CLP', amount: 150.25, exchangeRate: 1275,
    }));
    const match = ExchangeMatch.parse(await onceAccountsKnown(client, '/api/exchange-matches', bob, { exchangeRequestId: request.id }));
    await client.json(`/api/exchange-matches/${match.id}/confirm`, 200, { method: 'PUT', cookie: ana.cookie });
    await client.json(`/api/exchange-matches/${match.id}/complete`, 200, { method: 'PUT', cookie: bob.cookie });
    await vi.waitFor(async () => { // the rating service hears of the completion over the bus
      const res = await client.call('/api/ratings', { cookie: bob.cookie, body: { exchangeMatchId: match.id, toUserId: ana.id, rating: 5 } });
      expect(res.status, await res.clone().text()).toBe(201);
      Rating.parse(await res.json());
    }, viaBus);
    Rating.parse(await client.json('/api/ratings', 201, { cookie: ana.cookie, body: { exchangeMatchId: match.id, toUserId: bob.id, rating: 4 } }));

    // Once every event is published and consumed: no outbox holds a row, no group lags (committed within a second).
    await vi.waitFor(async () => {
      const now = await scrapeAll();
      for (const service of ServiceNames) {
        expect([service, now[service].value('puente_outbox_backlog', { service }), now[service].value('puente_outbox_oldest_age_seconds', { service })]).toEqual([service, 0, 0]);
        expect([service, now[service].value('puente_consumer_lag', { group: service })]).toEqual([service, 0]);
      }
      expect(now.gateway.sum('puente_consumer_lag')).toBe(0);
    }, { timeout: 60_000, interval: 500 });
    const after = await scrapeAll();
    const delta = (proc: typeof PROCESSES[number], name: string, labels: Record<string, string> = {}) => after[proc].sum(name, labels) - before[proc].sum(name, labels);

    expect({
      signups: delta('identity', 'puente_signups_total', { service: 'identity' }),
      failedLogins: delta('identity', 'puente_failed_logins_total', { service: 'identity', method: 'password', reason: 'invalid_credentials' }),
      requestsPosted: delta('exchange', 'puente_requests_posted_total', { service: 'exchange' }),
      matches: delta('exchange', 'puente_matches_total', { service: 'exchange' }),
      confirmed: delta('exchange', 'puente_matches_confirmed_total', { service: 'exchange' }),
      completions: delta('exchange', 'puente_completions_total', { service: 'exchange' }),
      ratings: delta('rating', 'puente_ratings_total', { service: 'rating' }),
      confirmedEvents: delta('exchange', 'puente_events_published_total', { service: 'exchange', type: 'exchange.match.confirmed' }),
    }).toEqual({ signups: 2, failedLogins: 1, requestsPosted: 1, matches: 1, confirmed: 1, completions: 1, ratings: 2, confirmedEvents: 1 });

    // The gateway times each route by its pattern (never a raw URL with ids in it), and the owning service too.
    const timed = (proc: 'gateway' | 'exchange' | 'rating', method: string, route: string, status: string) =>
      delta(proc, DURATION_COUNT, { service: proc, method, route, status_code: status });
    expect({
      post: [timed('gateway', 'POST', '/api/exchange-requests', '201'), timed('exchange', 'POST', '/exchange-requests', '201')],
      accept: [timed('gateway', 'POST', '/api/exchange-matches', '201'), timed('exchange', 'POST', '/exchange-matches', '201')],
      confirm: [timed('gateway', 'PUT', '/api/exchange-matches/:id/confirm', '200'), timed('exchange', 'PUT', '/exchange-matches/:id/confirm', '200')],
      complete: [timed('gateway', 'PUT', '/api/exchange-matches/:id/complete', '200'), timed('exchange', 'PUT', '/exchange-matches/:id/complete', '200')],
      rate: [timed('gateway', 'POST', '/api/ratings', '201'), timed('rating', 'POST', '/ratings', '201')],
    }).toEqual({ post: [1, 1], accept: [1, 1], confirm: [1, 1], complete: [1, 1], rate: [2, 2] });
    expect(after.gateway.find('puente_http_request_duration_seconds_count').filter((s) => /\d/.test(s.labels.route ?? ''))).toEqual([]);
    const confirmBuckets = after.exchange.find('puente_http_request_duration_seconds_bucket', { route: '/exchange-matches/:id/confirm', status_code: '200' });
    expect(confirmBuckets.find((b) => b.labels.le === '+Inf')?.value).toBe(1);

    expect(after.gateway.value('puente_ws_sockets_open', { service: 'gateway' })).toBe(1);
    for (const service of ServiceNames) expect([service, after[service].value('puente_dead_letters_total', { group: service })]).toEqual([service, 0]);
  }, 240_000);
});

describe('Prometheus metrics of the embedded mode', () => {
  let app: RunningTestApp;
  beforeAll(async () => {
    app = await startEmbeddedApp('metrics-embedded', { ...appEnv, METRICS_PORT: '0' });
  }, 60_000);
  afterAll(async () => { await app?.stop(); }, 30_000);

  it('serves every service\'s and the gateway\'s samples from one registry on one port, each labelled with its service', async () => {
    const url = app.metricsUrls!.puente!;
    expect(new URL(url).port).not.toBe(new URL(app.url).port);
    const client = appClient(app.url);
    const before = await Scrape.of(url);
    await client.signUp(traders.ana, ADMIN.code);

    // The in-process bus: every group committed the sign-up's events, every outbox published them.
    await vi.waitFor(async () => {
      const now = await Scrape.of(url);
      for (const service of ServiceNames) {
        expect([service, now.value('puente_outbox_backlog', { service }), now.value('puente_consumer_lag', { group: service })]).toEqual([service, 0, 0]);
      }
    }, { timeout: 20_000, interval: 200 });
    const after = await Scrape.of(url);
    expect(after.find('nodejs_eventloop_lag_p99_seconds')).toHaveLength(1); // one process, its runtime's metrics once
    // Embedded, each service's pool holds 2 connections to the one-session database.
    expect(Object.fromEntries(ServiceNames.map((service) => [service, after.value('puente_db_pool_max', { service })])))
      .toEqual(Object.fromEntries(ServiceNames.map((service) => [service, 2])));
    expect(after.sum('puente_signups_total', { service: 'identity' }) - before.sum('puente_signups_total', { service: 'identity' })).toBe(1);
    const verified = (service: string, route: string) => after.sum(DURATION_COUNT, { service, method: 'POST', route, status_code: '200' })
      - before.sum(DURATION_COUNT, { service, method: 'POST', route, status_code: '200' });
    expect([verified('gateway', '/api/signup/verify'), verified('identity', '/signup/verify')]).toEqual([1, 1]);
  }, 60_000);
});
